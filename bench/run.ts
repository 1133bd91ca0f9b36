// `npm run bench`: every benchmark of issue 7 in one run, each against its own baseline.
// Not part of `npm test` or CI. Options: --only=stateless,stateful,write-cost,history,webhooks,webhooks-load,odds
// --runs=N (default 5) --seconds=N (default 10) --events=N (history depth, default 1000000)
// --fewer-connections=N (the stateful pair again at N connections, default 4; 0: skip)
// --node-options='--max-old-space-size=160' (flags for the server's node, over the image's NODE_OPTIONS).
// Also: --only=memory,profile (start-up memory breakdown; CPU profile of the stateful path).
// --only=node-flags: RSS and CPU per roll of the image's node flags against alternatives, both databases.
// --only=archive: export of a campaign of --events events, import of --rolls (default 20000) real rolls.
// --only=webhooks-load: delivery while rolls are written at full speed, separate worker and in-process
// (--load-seconds=15, --load-endpoints=10 on one campaign, --load-layouts=worker,in-process,
// --load-pool-size=N for the API's pool, --load-generator-nice=N to let the load generator yield its core);
// about 2 minutes with the build.
// The server runs compiled (`npm run build`, done here first), as the Docker image runs it.
// Results: bench/results/latest.json.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchStateless } from './stateless.js'
import { benchStateful, rollLoad } from './stateful.js'
import { benchWriteCost } from './write-cost.js'
import { benchExport, benchImport } from './archive.js'
import { benchHistory } from './history.js'
import { benchOddsHttp, benchOddsInProcess } from './odds.js'
import { drain, lagOfCommits, lagUnderLoad, seedBacklog, setUpEndpoints } from './webhooks.js'
import { deliverUnderLoad, setUpFanOut, type Layout, type UnderLoadResult } from './webhooks-under-load.js'
import { startReceiver } from './lib/receiver.js'
import { SETTINGS, startPostgres } from './lib/postgres.js'
import {
  hasTaskset,
  imageNodeOptions,
  LOAD_CORE,
  SERVER_CORE,
  pinSelf,
  setOwnNiceness,
  startServer,
  startWorker,
  type BenchServer,
} from './lib/server.js'
import { profile } from './profile.js'
import { benchNodeFlags } from './node-flags.js'
import { mb, median, pct, round } from './lib/stats.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [name = '', ...value] = arg.replace(/^--/, '').split('=')
    return [name, value.length ? value.join('=') : 'true'] as const
  }),
)
const only = new Set(
  (
    args.get('only') ?? 'stateless,stateful,write-cost,history,webhooks,webhooks-load,archive,odds,memory,profile'
  ).split(','),
)
// The write cost measures on the database the stateful benchmark fills.
if (only.has('write-cost')) only.add('stateful')
const runs = Number(args.get('runs') ?? 5)
const seconds = Number(args.get('seconds') ?? 10)
const workDir = args.get('dir') ?? '/tmp/nerve-bench'
const pgPort = Number(args.get('pg-port') ?? 56543)
const started = Date.now()

mkdirSync(workDir, { recursive: true })
const pinnedSelf = pinSelf()
console.log('building the server (npm run build)')
execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' })

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: round(totalmem() / 2 ** 30, 0),
  freeGiB: round(freemem() / 2 ** 30, 0),
  node: process.version,
  loadAverageAtStart: loadavg().map((value) => round(value, 2)),
  pinning: hasTaskset && pinnedSelf ? 'server on core 0, load generators on core 1, PostgreSQL unpinned' : 'none',
  postgres: '',
  postgresSettings: SETTINGS,
  git: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(),
}
console.log(`machine: ${JSON.stringify(machine)}`)

const postgres = await startPostgres(join(workDir, 'pg'), pgPort)
machine.postgres = postgres.version
const results: Record<string, unknown> = { machine, runs, seconds }
const memory: Record<string, { idle: number; peak: number; peakHeapUsed: number; peakExternal: number }> = {}

async function withServer<T>(
  name: string,
  env: Record<string, string>,
  work: (server: BenchServer) => Promise<T>,
  nodeArgs: string[] = [],
): Promise<T> {
  const server = await startServer({
    env,
    port: Number(args.get('port') ?? 39017),
    logFile: join(workDir, `${name}.log`),
    nodeArgs: [...nodeArgs, ...(args.get('node-options')?.split(' ') ?? [])],
  })
  try {
    const result = await work(server)
    const { peak } = await server.memory()
    memory[name] = {
      idle: mb(server.idle.rss),
      peak: mb(peak.rss),
      peakHeapUsed: mb(peak.heapUsed),
      peakExternal: mb(peak.external),
    }
    console.log(`  server RSS: idle ${memory[name].idle} MB, peak ${memory[name].peak} MB`)
    return result
  } finally {
    await server.stop()
  }
}

/** Prints the write cost's figures as each run prints them. */
function report(cost: Awaited<ReturnType<typeof benchWriteCost>>) {
  console.log(`  the minimal roll transaction:\n${cost.minimalScript.replace(/^/gm, '    ')}`)
  console.log(`  what an event holds: ${JSON.stringify(cost.sizes)}`)
  const signed = (change: number | null) => (change === null ? '' : ` (${change >= 0 ? '+' : ''}${change}%)`)
  for (const row of cost.rows)
    console.log(
      `  ${row.name}: ${row.tps} tps${signed(row.gain)}; ${row.cpuMicros} µs CPU${signed(row.cpuChange)}, ${row.walBytes} B WAL${signed(row.walChange)} a transaction`,
    )
  const { ratios } = cost
  console.log(
    `=> write cost (medians of each run's ratio to the minimal transaction of that run): Nerve's own transaction (prepared, as Nerve sends it) ${pct(ratios.nerve)} of the minimal (target ≥ 50%; medians ${round(cost.nerveTps, 0)} and ${round(cost.minimalTps, 0)} tps), ${pct(ratios.nerveOfPrepared)} of the minimal prepared too (${round(cost.minimalPreparedTps, 0)} tps); parsed on every call ${round(cost.nerveExtendedTps, 0)} tps; through HTTP at 10 connections ${ratios.http === null ? '-' : pct(ratios.http)} of the minimal (target ≥ 35%), ${ratios.httpOfPrepared === null ? '-' : pct(ratios.httpOfPrepared)} of the minimal prepared; p99 at 4 connections ${ratios.httpFewerP99 ?? '-'} ms (target < 20 ms); EXPLAIN of the write: ${cost.explainFile}`,
  )
}

const pgbouncerScript = join(ROOT, 'scripts/throwaway-pgbouncer.sh')
const pgbouncerDirs: string[] = []

/**
 * Debian's PgBouncer (1.18) in front of the benchmark's database, in transaction and in session
 * mode, when it is installed (issue 32): the URLs through each, or undefined without it.
 */
function startPgBouncers(databaseUrl: string): { transaction: string; session: string } | undefined {
  if (spawnSync('sh', ['-c', 'command -v pgbouncer || test -x /usr/sbin/pgbouncer']).status !== 0) {
    console.log('  pgbouncer is not installed: the pooler rows are left out')
    return undefined
  }
  const start = (mode: string, port: number) => {
    const dir = join(workDir, `pgbouncer-${mode}`)
    pgbouncerDirs.push(dir)
    return execFileSync(pgbouncerScript, ['start', dir, String(port), databaseUrl, mode], { encoding: 'utf8' }).trim()
  }
  return { transaction: start('transaction', pgPort + 1), session: start('session', pgPort + 2) }
}

function stopPgBouncers() {
  for (const dir of pgbouncerDirs.splice(0)) execFileSync(pgbouncerScript, ['stop', dir])
}

/**
 * A roll through HTTP with every statement unnamed (DATABASE_PREPARED_STATEMENTS=off), straight to
 * PostgreSQL and through PgBouncer in transaction mode, against the server as it runs (named),
 * alternating `runs` times at 10 connections: what the setting costs a roll end to end.
 */
async function benchUnnamed(
  named: BenchServer,
  env: Record<string, string>,
  targets: Parameters<typeof rollLoad>[1],
  pooler: { transaction: string } | undefined,
) {
  const port = Number(args.get('port') ?? 39017)
  const unnamed = await startServer({
    env: { ...env, DATABASE_PREPARED_STATEMENTS: 'off' },
    port: port + 1,
    logFile: join(workDir, 'api-unnamed.log'),
  })
  const pooled = pooler
    ? await startServer({
        env: { ...env, DATABASE_URL: pooler.transaction, DATABASE_PREPARED_STATEMENTS: 'off' },
        port: port + 2,
        logFile: join(workDir, 'api-unnamed-pgbouncer.log'),
      })
    : undefined
  const rps: Record<string, number[]> = { named: [], unnamed: [], unnamedThroughPgBouncer: [] }
  const p99: Record<string, number[]> = { named: [], unnamed: [], unnamedThroughPgBouncer: [] }
  try {
    for (let run = 0; run < runs; run++) {
      for (const [name, server] of [
        ['named', named],
        ['unnamed', unnamed],
        ['unnamedThroughPgBouncer', pooled],
      ] as const) {
        if (!server) continue
        const result = await rollLoad(server, targets, 10, Math.min(seconds, 5))
        rps[name]!.push(result.requestsPerSecond)
        p99[name]!.push(result.p99)
        console.log(`  rolls through HTTP, ${name}: ${round(result.requestsPerSecond, 0)} req/s, p99 ${result.p99} ms`)
      }
    }
  } finally {
    await unnamed.stop()
    await pooled?.stop()
  }
  const medianOf = (values: number[]) => (values.length ? round(median(values), 1) : null)
  const summary = Object.fromEntries(
    Object.keys(rps).map((name) => [name, { rps: medianOf(rps[name]!), p99: medianOf(p99[name]!) }]),
  )
  console.log(`=> unnamed statements through HTTP (medians): ${JSON.stringify(summary)}`)
  return summary
}

try {
  if (only.has('stateless') || only.has('stateful')) {
    const databaseUrl = await postgres.createDatabase('nerve_api')
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' }
    await withServer('api', env, async (server) => {
      if (only.has('stateless')) {
        console.log('1. stateless resolve vs echo and vs the same bytes')
        const stateless = await benchStateless(server, { runs, seconds, connections: 10 })
        results.stateless = stateless
        console.log(
          `=> stateless: resolve ${round(stateless.resolveRps, 0)}, bytes ${round(stateless.bytesRps, 0)}, echo ${round(stateless.echoRps, 0)} req/s; resolve/bytes ${pct(stateless.ratioToBytes)} (target ≥ 75%), resolve/echo ${pct(stateless.ratio)} (target ≥ 50%)`,
        )
        const cpu = stateless.cpuPerRequestUs
        console.log(
          `=> stateless, server CPU per request: resolve ${round(cpu.resolve, 0)} µs, bytes ${round(cpu.bytes, 0)} µs, echo ${round(cpu.echo, 0)} µs; resolve/bytes ${pct(stateless.cpuRatioToBytes)}, resolve/echo ${pct(stateless.cpuRatio)}; the ceiling, unchecked ${round(cpu.unchecked, 0)} µs: ${pct(stateless.uncheckedCpuRatioToBytes)} of bytes`,
        )
      }
      if (only.has('stateful')) {
        console.log('2. stateful roll vs pgbench')
        const stateful = await benchStateful(server, databaseUrl, workDir, {
          runs,
          seconds,
          connections: 10,
          fewerConnections: Number(args.get('fewer-connections') ?? 4),
          campaigns: 20,
          characters: 5,
        })
        results.stateful = { ...stateful, targets: stateful.targets.length }
        console.log(
          `=> stateful: ${round(stateful.nerveRps, 0)} req/s vs pgbench ${round(stateful.pgbenchTps, 0)} tps = ${pct(stateful.ratio)} (target ≥ 60%), p99 ${stateful.nerveP99} ms (target < 15 ms); pgbench's own p50 ${stateful.pgbenchP50} ms, p99 ${stateful.pgbenchP99} ms`,
        )
        if (stateful.fewer)
          console.log(
            `=> at ${stateful.fewer.connections} connections: ${round(stateful.fewer.nerveRps, 0)} req/s, p50 ${stateful.fewer.nerveP50} ms, p99 ${stateful.fewer.nerveP99} ms; pgbench ${round(stateful.fewer.pgbenchTps, 0)} tps, p50 ${stateful.fewer.pgbenchP50} ms, p99 ${stateful.fewer.pgbenchP99} ms`,
          )
        if (only.has('write-cost')) {
          console.log("2b. a roll's write cost against a minimal roll transaction (pgbench, 10 connections)")
          const pooler = startPgBouncers(databaseUrl)
          try {
            const cost = await benchWriteCost(databaseUrl, workDir, {
              runs,
              seconds: Math.min(seconds, 5),
              connections: 10,
              targets: stateful.targets.length,
              http: (connections, duration) => rollLoad(server, stateful.targets, connections, duration),
              ...(pooler ? { pooler } : {}),
            })
            results.writeCost = cost
            results.unnamedStatements = await benchUnnamed(server, env, stateful.targets, pooler)
            report(cost)
          } finally {
            stopPgBouncers()
          }
        }
      }
    })
  }
  if (only.has('history')) {
    const databaseUrl = await postgres.createDatabase('nerve_history')
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_DISPATCHER: 'off' }
    await withServer('history', env, async (server) => {
      console.log('3. history at depth')
      const history = await benchHistory(server, databaseUrl, workDir, {
        deep: Number(args.get('events') ?? 1_000_000),
        shallow: 10_000,
        seconds: Math.min(seconds, 5),
      })
      results.history = history
      for (const sheets of ['full', 'none'] as const) {
        const pages = history.pages.filter((page) => page.sheets === sheets)
        const worst = Math.max(...pages.map((page) => page.serverP99))
        const p50s = pages.map((page) => page.serverP50)
        console.log(
          `=> history, sheets=${sheets}: server p50 ${Math.min(...p50s)}–${Math.max(...p50s)} ms, worst p99 ${worst} ms over every page (target < 5 ms)`,
        )
      }
    })
  }
  if (only.has('webhooks')) {
    console.log('4. webhook fan-out')
    const databaseUrl = await postgres.createDatabase('nerve_webhooks')
    const receiver = await startReceiver(Number(args.get('receiver-port') ?? 39100))
    const endpoints = Number(args.get('endpoints') ?? 50)
    const perEndpoint = Number(args.get('backlog') ?? 400)
    // One delivery in flight per endpoint: as many slots as endpoints (the default is 10).
    const concurrency = args.get('webhook-concurrency') ?? String(endpoints)
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: concurrency }
    try {
      const parties = await withServer('webhooks-setup', { ...env, WEBHOOK_DISPATCHER: 'off' }, async (server) => {
        const parties = await setUpEndpoints(server, receiver, endpoints)
        await seedBacklog(server, databaseUrl, parties, perEndpoint)
        return parties
      })
      await withServer('webhooks', env, async () => {
        const fanOut = await drain(receiver, endpoints * perEndpoint, endpoints)
        console.log(
          `=> fan-out: ${fanOut.deliveries} deliveries to ${endpoints} endpoints in ${fanOut.seconds} s = ${fanOut.perSecond}/s (target ≥ 1000/s), ${fanOut.duplicates} duplicates`,
        )
        results.webhooks = { concurrency: Number(concurrency), fanOut }
      })
      // At 500 rolls/s the API alone fills its core, so deliveries go out from `npm run worker`
      // (the documented way to scale them apart), on the load generator's core.
      const workerEnv = { ...env, WEBHOOK_POLL_INTERVAL_MS: '100' }
      const worker = await startWorker({ env: workerEnv, core: LOAD_CORE, logFile: join(workDir, 'worker.log') })
      try {
        await withServer('webhooks-api', { ...env, WEBHOOK_DISPATCHER: 'off' }, async (server) => {
          const lag = await lagUnderLoad(server, receiver, parties, { rate: 500, seconds: Math.max(seconds, 10) })
          console.log(
            `=> lag at ${round(lag.rolls.requestsPerSecond, 0)} events/s: p50 ${lag.lagP50} ms, p99 ${lag.lagP99} ms, max ${lag.lagMax} ms (target p99 < 1000 ms); rolls p99 ${lag.rolls.p99} ms`,
          )
          results.webhooks = { ...(results.webhooks as object), lag }
        })
      } finally {
        await worker.stop()
      }
      // The same lag with the dispatcher alone: on two cores the API cannot take 500 rolls/s
      // while a worker delivers, so the events are committed straight into the database.
      const soleWorker = await startWorker({
        env: workerEnv,
        core: SERVER_CORE,
        logFile: join(workDir, 'worker-commits.log'),
      })
      try {
        const lag = await lagOfCommits(databaseUrl, receiver, parties, { rate: 500, seconds: Math.max(seconds, 10) })
        console.log(
          `=> lag at ${lag.committedPerSecond} commits/s straight into the database: p50 ${lag.lagP50} ms, p99 ${lag.lagP99} ms, max ${lag.lagMax} ms (target p99 < 1000 ms); ${lag.deliveries} of ${lag.committed} delivered`,
        )
        results.webhooks = { ...(results.webhooks as object), lagOfCommits: lag }
      } finally {
        await soleWorker.stop()
      }
    } finally {
      await receiver.close()
    }
  }
  if (only.has('webhooks-load')) {
    console.log('4c. webhooks while the table rolls (issue 28): both layouts, one campaign fanned out to 10 endpoints')
    const receiver = await startReceiver(Number(args.get('receiver-port') ?? 39100) + 1)
    const endpoints = Number(args.get('load-endpoints') ?? 10)
    const loadSeconds = Number(args.get('load-seconds') ?? 15)
    // --load-generator-nice=N: the load generator and receiver yield their core to the worker
    // while rolls run (they stand in for clients elsewhere); 0, the default, shares it evenly.
    const loadGeneratorNice = Number(args.get('load-generator-nice') ?? 0)
    const underLoad: UnderLoadResult[] = []
    try {
      const layouts = (args.get('load-layouts') ?? 'worker,in-process').split(',') as Layout[]
      // --load-pool-size: the API's DATABASE_POOL_SIZE (default 10), to see whether the in-process dispatcher waits for it.
      const poolSize = args.get('load-pool-size')
      for (const layout of layouts) {
        const databaseUrl = await postgres.createDatabase(`nerve_webhooks_${layout.replace('-', '_')}`)
        const env = {
          DATABASE_URL: databaseUrl,
          WEBHOOK_ALLOW_PRIVATE: 'true',
          ...(poolSize ? { DATABASE_POOL_SIZE: poolSize } : {}),
        }
        const serverEnv = layout === 'worker' ? { ...env, WEBHOOK_DISPATCHER: 'off' } : env
        const result = await withServer(`webhooks-load-${layout}`, serverEnv, async (server) => {
          const fanOut = await setUpFanOut(server, receiver, endpoints)
          const options = { seconds: loadSeconds, connections: 10 }
          const yielding = async (dispatcherPid: number) => {
            // Lowered only once every process of the layout runs: they would inherit it.
            if (loadGeneratorNice !== 0) setOwnNiceness(loadGeneratorNice)
            try {
              return await deliverUnderLoad(layout, server, databaseUrl, receiver, fanOut, {
                ...options,
                dispatcherPid,
              })
            } finally {
              if (loadGeneratorNice !== 0 && !setOwnNiceness(0)) console.warn('   (niceness not restored: not root)')
            }
          }
          if (layout === 'in-process') return yielding(server.pid)
          // The worker shares the load generator's core: the API keeps its own.
          const worker = await startWorker({ env, core: LOAD_CORE, logFile: join(workDir, 'worker-under-load.log') })
          try {
            return await yielding(worker.pid)
          } finally {
            await worker.stop()
          }
        })
        underLoad.push(result)
        console.log(
          `=> ${layout}: ${result.eventsPerSecond} events/s for ${result.loadSeconds} s (roll p99 ${result.rollP99} ms); during the load ${result.deliveriesPerSecondDuringLoad} deliveries/s = ${pct(result.shareDuringLoad)} of events × endpoints (worst endpoint ${pct(result.worstEndpointShareDuringLoad)}; target ≥ 90%); lag p50 ${result.lagP50} ms, p99 ${result.lagP99} ms, max ${result.lagMax} ms (target p99 < 1000 ms); drained ${result.drainSeconds ?? '–'} s after (target ≤ 5 s); ${result.delivered} of ${result.expected} delivered, ${result.duplicates} repeats; dispatcher RSS peak ${result.dispatcherRssPeakMb} MB; endpoint rows unlockable FOR UPDATE ${pct(result.lockedForUpdate)}, FOR NO KEY UPDATE ${pct(result.lockedForNoKeyUpdate)}; CPU during the load (cores): dispatcher ${result.cpuDuringLoad.dispatcher}, API ${result.cpuDuringLoad.api}, PostgreSQL ${result.cpuDuringLoad.postgres}, load generator and receiver ${result.cpuDuringLoad.loadGenerator}`,
        )
      }
    } finally {
      await receiver.close()
    }
    results.webhooksUnderLoad = underLoad
  }
  if (only.has('archive')) {
    console.log('5. campaign archives: export at depth, import of a real history')
    const databaseUrl = await postgres.createDatabase('nerve_archive')
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_DISPATCHER: 'off' }
    const exported = await withServer('archive-export', env, (server) =>
      benchExport(server, databaseUrl, { events: Number(args.get('events') ?? 1_000_000) }),
    )
    console.log(
      `=> export: ${exported.events} events, ${mb(exported.bytes)} MB in ${exported.seconds} s = ${exported.megabytesPerSecond} MB/s (${exported.eventsPerSecond} events/s), first line after ${exported.firstLineMs} ms; server RSS ${exported.rssBefore} MB before, peak ${exported.rssPeak} MB (target < 250 MB)`,
    )
    // An archive of that size takes longer to arrive than the default 30 s allows for a request.
    const imported = await withServer('archive-import', { ...env, REQUEST_TIMEOUT_MS: '600000' }, (server) =>
      benchImport(server, { rolls: Number(args.get('rolls') ?? 20_000) }),
    )
    console.log(
      `=> import: ${imported.events} events (${mb(imported.bytes)} MB) replayed and written in ${imported.importSeconds} s = ${imported.eventsPerSecond} events/s (their export: ${imported.exportSeconds} s); server RSS ${imported.rssBefore} MB before, peak ${imported.rssPeak} MB`,
    )
    results.archive = { exported, imported }
  }
  if (only.has('odds')) {
    console.log('6. odds before a roll: an odds answer as a multiple of a resolution')
    const inProcess = benchOddsInProcess({ runs, millis: 1000 })
    for (const cost of inProcess)
      console.log(
        `  in process, ${cost.action}: resolution ${cost.resolutionMicros} µs, odds ${cost.oddsMicros} µs = ${cost.ratio} resolutions`,
      )
    const databaseUrl = await postgres.createDatabase('nerve_odds')
    const http = await withServer('odds', { DATABASE_URL: databaseUrl, WEBHOOK_DISPATCHER: 'off' }, (server) =>
      benchOddsHttp(server, { runs, seconds: Math.min(seconds, 5), connections: 10 }),
    )
    results.odds = { inProcess, http }
    const worst = Math.max(...inProcess.map((cost) => cost.ratio), ...http.map((cost) => cost.ratio))
    console.log(`=> odds: at most ${worst} resolutions per odds answer, in process or over HTTP (target ≤ ~2)`)
  }
  if (only.has('memory')) {
    console.log('7. memory: where a started server’s memory goes')
    const databaseUrl = await postgres.createDatabase('nerve_memory')
    const output = execFileSync(process.execPath, ['--expose-gc', 'bench/memory.mjs', databaseUrl], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: imageNodeOptions() },
    })
    const stages = JSON.parse(output.trim().split('\n').at(-1)!) as { stage: string; rss: number; heapUsed: number }[]
    for (const stage of stages)
      console.log(
        `  ${String(stage.rss).padStart(4)} MB RSS, ${String(stage.heapUsed).padStart(3)} MB heap  ${stage.stage}`,
      )
    results.startupMemory = stages
  }
  if (only.has('profile')) {
    console.log('8. CPU profile of the stateful path')
    const summary = await profile('stateful', Math.max(seconds, 15), workDir, pgPort + 1)
    results.profile = summary
    console.log(
      `  ${summary.file}: ${summary.processCpuPerRequestUs} µs of server CPU per roll (target ≤ 500), ${summary.cpuPerRequestUs} µs sampled`,
    )
    for (const { area, share } of summary.areas.slice(0, 12)) console.log(`  ${share.padStart(6)}  ${area}`)
    for (const { name, share } of summary.functions.slice(0, 12)) console.log(`  ${share.padStart(6)}  ${name}`)
  }
  if (only.has('node-flags')) {
    console.log("9. node flags: the image's against alternatives, on both databases")
    const flags = await benchNodeFlags({
      seconds,
      rounds: Math.min(runs, 3),
      databases: ['PostgreSQL', 'PGlite'],
      workDir,
      pgPort: pgPort + 2,
    })
    results.nodeFlags = flags
    for (const row of flags.summary)
      console.log(
        `=> ${row.database} ${row.flags}: RSS peak ${row.rssPeakMb} MB, ${row.cpuPerRollUs} µs of CPU per roll = ${pct(row.cpuOfImage)} of the image's flags`,
      )
  }
} finally {
  await postgres.stop()
  results.memory = memory
  const peaks = Object.values(memory).map((entry) => entry.peak)
  if (peaks.length)
    console.log(`=> memory: server RSS peak ${Math.max(...peaks)} MB over every benchmark (target < 250 MB)`)
  results.minutes = round((Date.now() - started) / 60_000, 1)
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.log(`done in ${String(results.minutes)} min; bench/results/latest.json`)
}
