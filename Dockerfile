# syntax=docker/dockerfile:1
# Nerve in three stages. `build` installs everything, generates the Prisma client and compiles
# TypeScript to dist/ (the generated client with it). `deps` installs the production
# dependencies alone: what dist/ imports, no Prisma CLI, TypeScript or tsx. `runtime` takes
# node_modules from `deps` and dist/ from `build`, and runs as an unprivileged user.
# scripts/production-install-check.ts builds these stages from this file without a container
# engine and runs the result against PostgreSQL (CI does, every run): keep to FROM … AS,
# WORKDIR /app, COPY, RUN, ENV, CMD and the like, which it understands.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts tsconfig.json tsconfig.build.json ./
COPY prisma ./prisma
# The project's postinstall generates the Prisma client into src/generated/prisma. Prisma reads
# tsconfig.json to choose the extension of the client's own imports: without it they end in .ts,
# which the compiled client cannot load.
RUN npm ci --no-audit --no-fund
COPY src ./src
RUN npm run build

# `--omit=optional` as well as `--omit=dev`: @prisma/client names the Prisma CLI and TypeScript
# as optional peer dependencies, so npm keeps them (and the CLI's engines, effect, …: 320 MB)
# unless optional packages are left out too; the only other optional package, pg-cloudflare, is
# for Cloudflare Workers. `--ignore-scripts`: the postinstall needs the CLI, and the client is
# generated and compiled in `build`. The trim removes the query compilers of the databases
# Nerve does not use (docs/DEPLOY.md, the container).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/trim-runtime-modules.sh ./scripts/
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && sh scripts/trim-runtime-modules.sh node_modules

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# A bounded V8 heap, the same as `npm start` (with the flags in CMD, which NODE_OPTIONS may not
# carry). Left alone, V8 sizes its heap for the host's memory and collects lazily, so the
# process grows to hundreds of MB of garbage. Load shedding's heap threshold defaults to a share
# of this limit, so it answers 503 before an out-of-memory. `npm run bench` starts the server
# with the flags read from this line and CMD's; docs/DEPLOY.md has the measurements.
ENV NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=2"
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --chown=node:node public ./public
# The guides, which the home page links and serves (/guides/…) as plain text.
COPY --chown=node:node docs/guides ./docs/guides
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations are applied on start, under an advisory lock, so several replicas may start at once.
# The webhook worker: `node --liftoff-only dist/worker.js` (docs/DEPLOY.md).
CMD ["node", "--liftoff-only", "dist/server.js"]
