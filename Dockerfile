# syntax=docker/dockerfile:1
# Nerve: build stage installs everything and generates the Prisma client; the runtime stage
# keeps production dependencies only and runs as an unprivileged user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# A bounded V8 heap. Left alone, V8 sizes its heap for the host's memory and collects lazily,
# so the process grows to hundreds of MB of garbage; with these flags it stays under 250 MB
# under load at the same throughput (docs/BENCHMARKS.md, memory). Load shedding's heap
# threshold defaults to a share of this limit, so it answers 503 before an out-of-memory.
# `npm run bench` starts the server with the flags read from this line.
ENV NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=8"
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --chown=node:node public ./public
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations are applied on start, under an advisory lock, so several replicas may start at once.
CMD ["node", "dist/server.js"]
