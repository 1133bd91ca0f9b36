// The CPU one delivery costs the webhook dispatcher as a whole (issue 28): `DATABASE_URL=<an empty
// PostgreSQL database> tsx bench/webhook-dispatcher-cpu.ts [endpoints] [deliveries per endpoint] [rounds]`.
// Each round queues a backlog (bench/webhooks.ts's seedBacklog: copies of a real roll's event,
// one delivery per endpoint each), then starts a WebhookDispatcher in this process and lets it
// drain to a receiver on its own thread that answers 204. The dispatcher's CPU is this process's
// (process.cpuUsage) less the receiver thread's, from start to the last delivery received;
// PostgreSQL's own CPU is in its processes, not counted. Receptions and the connections they came
// on are counted at the receiver. With BENCH_CPU_PROFILE=FILE.cpuprofile, the drains after the
// first are profiled (this thread only) and summarised by bench/profile-summary.ts.
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { Worker } from 'node:worker_threads'
import { pino } from 'pino'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { createStore } from '../src/repositories/index.js'
import { dispatcherOptions, WebhookDispatcher } from '../src/webhooks/dispatcher.js'
import { DELIVERY_DUE_CHANNEL } from '../src/webhooks/repository.js'
import { createParties } from './lib/fixtures.js'
import { summarise } from './profile-summary.js'
import type { BenchServer } from './lib/server.js'
import { median, round, sleep } from './lib/stats.js'
import { seedBacklog } from './webhooks.js'

interface ReceiverStats {
  requests: number
  connections: number
  cpuMicros: number
}

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('DATABASE_URL: an empty PostgreSQL database to use')
const RECEIVER_PORT = Number(process.env.BENCH_RECEIVER_PORT ?? 41268)
const API_PORT = Number(process.env.BENCH_API_PORT ?? 41267)
const [endpoints = 10, perEndpoint = 600, rounds = 3] = process.argv.slice(2).map(Number)

const config = loadConfig({
  DATABASE_URL: databaseUrl,
  WEBHOOK_DISPATCHER: 'off',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '1000000000',
})

const thread = new Worker(new URL('./lib/counting-receiver-thread.mjs', import.meta.url), {
  workerData: { port: RECEIVER_PORT },
})
await once(thread, 'message')
async function stats(): Promise<ReceiverStats> {
  thread.postMessage('stats')
  const [answer] = (await once(thread, 'message')) as [ReceiverStats]
  return answer
}

/** The API in this process, only to make the campaigns and queue the backlog; closed before the drain. */
async function withApi<T>(work: (server: BenchServer) => Promise<T>): Promise<T> {
  const app = await buildApp(config, { logger: false })
  await app.listen({ port: API_PORT, host: '127.0.0.1' })
  try {
    return await work({ url: `http://127.0.0.1:${API_PORT}` } as BenchServer)
  } finally {
    await app.close()
  }
}

const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/nerve-webhooks`
const parties = await withApi((server) =>
  createParties(server.url, { campaigns: endpoints, characters: 1, webhookUrl: receiverUrl }),
)

const profileFile = process.env.BENCH_CPU_PROFILE
const inspector = new Session()
inspector.connect()
if (profileFile) await inspector.post('Profiler.enable')

const db = await openDatabase({ url: databaseUrl, dataDir: 'memory://', poolSize: config.DATABASE_POOL_SIZE })
const results: { perDelivery: number; perSecond: number; connections: number }[] = []
try {
  for (let r = 0; r < rounds; r++) {
    await withApi((server) => seedBacklog(server, databaseUrl, parties, perEndpoint))
    // seedBacklog's roll queues one delivery per endpoint too.
    const expected = endpoints * perEndpoint
    const before = await stats()
    const dispatcher = new WebhookDispatcher(
      createStore(db),
      pino({ level: 'silent' }),
      { ...dispatcherOptions(config), releaseLeasesOnStart: false },
      (onCommit) => db.listen(DELIVERY_DUE_CHANNEL, onCommit),
    )
    const profiling = profileFile !== undefined && r > 0
    if (profiling) await inspector.post('Profiler.start')
    const cpu = process.cpuUsage()
    const started = performance.now()
    dispatcher.start()
    let now = before
    while (now.requests - before.requests < expected) {
      await sleep(20)
      now = await stats()
    }
    const used = process.cpuUsage(cpu)
    const seconds = (performance.now() - started) / 1000
    if (profiling) {
      const { profile } = await inspector.post('Profiler.stop')
      const file = profileFile.replace(/(\.cpuprofile)?$/, `-${r + 1}.cpuprofile`)
      writeFileSync(file, JSON.stringify(profile))
      const summary = summarise(file, 25)
      console.log(`${file}: busy ${summary.busyMs} ms`)
      for (const { area, share } of summary.areas) console.log(`  ${share.padStart(6)}  ${area}`)
      console.log('  heaviest functions (self time):')
      for (const { name, share } of summary.functions) console.log(`  ${share.padStart(6)}  ${name}`)
    }
    await dispatcher.stop()
    const delivered = now.requests - before.requests
    results.push({
      perDelivery: (used.user + used.system - (now.cpuMicros - before.cpuMicros)) / delivered,
      perSecond: delivered / seconds,
      connections: now.connections - before.connections,
    })
    console.log(
      `round ${r + 1}: ${delivered} deliveries in ${round(seconds, 2)} s, ${round(results.at(-1)!.perDelivery, 0)} µs of CPU each, ${results.at(-1)!.connections} connections opened`,
    )
  }
  // The first round warms up (JIT, Prisma's first queries): the medians are of the others.
  const warm = results.length > 1 ? results.slice(1) : results
  console.log(
    `${endpoints} endpoints × ${perEndpoint} deliveries, ${rounds} rounds (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}): ` +
      `median after the first round ${round(median(warm.map((r) => r.perDelivery)), 0)} µs of dispatcher CPU per delivery, ` +
      `${round(median(warm.map((r) => r.perSecond)), 0)} deliveries/s`,
  )
} finally {
  inspector.disconnect()
  await db.close()
  thread.postMessage('close')
  await once(thread, 'message')
  await thread.terminate()
}
