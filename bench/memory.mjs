// Where the server's memory goes: RSS and V8 heap after each stage of starting the compiled
// server, in one fresh process: `node --expose-gc bench/memory.mjs DATABASE_URL` (bench/run.ts
// runs it with the Docker image's NODE_OPTIONS). Prints one JSON line.
import { getHeapSpaceStatistics } from 'node:v8'

const gc = globalThis.gc ?? (() => {})
const stages = []
const mb = (bytes) => Math.round(bytes / 1024 / 1024)

function note(stage) {
  gc()
  gc()
  const usage = process.memoryUsage()
  const code = getHeapSpaceStatistics()
    .filter((space) => space.space_name.includes('code'))
    .reduce((sum, space) => sum + space.space_used_size, 0)
  stages.push({ stage, rss: mb(usage.rss), heapUsed: mb(usage.heapUsed), external: mb(usage.external), code: mb(code) })
}

note('node')
await import('fastify')
await import('pino')
note('+ fastify, pino')
await import('../dist/generated/prisma/client.js')
await import('@prisma/adapter-pg')
note('+ Prisma client (generated client, runtime, query compiler)')
await import('../dist/rules/index.js')
note('+ rules (schemas, tables)')
const { buildApp } = await import('../dist/app.js')
const { loadConfig } = await import('../dist/config.js')
note('+ every other Nerve module')
const app = await buildApp(
  loadConfig({ DATABASE_URL: process.argv[2], LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }),
)
note('+ buildApp (plugins and routes registered, pool open)')
await app.ready()
note('+ ready (Ajv validators, response serializers, OpenAPI document)')
await app.close()
console.log(JSON.stringify(stages))
