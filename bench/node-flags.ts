// `tsx bench/node-flags.ts [seconds] [rounds] [PostgreSQL,PGlite]`: the node flags the image runs with against
// alternatives, on both databases. For each flag set, in turn, `rounds` times: the compiled
// server (`node FLAGS dist/server.js`, as `npm start` and the image run it) serves /docs and
// /dashboard, 100 rolls one at a time, then ten clients roll for `seconds`. Prints its RSS after
// and at its peak (the kernel's high-water mark) and its CPU time per roll in the ten-client part.
// `npm run build` first. docs/DEPLOY.md ("Node flags") has the results.
import { spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createParties, rollRequests, targetsOf } from './lib/fixtures.js'
import { load } from './lib/load.js'
import { startPostgres } from './lib/postgres.js'
import { imageFlags, pinned, pinSelf, SERVER_CORE } from './lib/server.js'
import { median } from './lib/stats.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PORT = 39021

/** An alternative to the image's flags: the same bounded old generation and baseline-compiled WebAssembly. */
const alternative = (...flags: string[]) => ['--max-old-space-size=128', ...flags, '--liftoff-only']

/** The flag sets compared; the first is what the image, `npm start` and `npm run worker` use. */
const FLAG_SETS: Record<string, string[]> = {
  image: imageFlags(),
  'former: --optimize-for-size': alternative('--max-semi-space-size=1', '--optimize-for-size'),
  'semi-space 1 MB': alternative('--max-semi-space-size=1'),
  'semi-space 4 MB': alternative('--max-semi-space-size=4'),
  'semi-space 8 MB': alternative('--max-semi-space-size=8'),
}

/** Fields of /proc/PID/status, in kB. */
function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match?.[1] ?? 0)
}

/** User and system CPU time of PID so far, in clock ticks (1/100 s). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

async function waitReady(url: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not become ready`)
}

export interface FlagsRun {
  flags: string
  database: 'PostgreSQL' | 'PGlite'
  rssAfterMb: number
  rssPeakMb: number
  cpuPerRollUs: number
  rolls: number
}

async function measure(
  name: string,
  database: FlagsRun['database'],
  env: Record<string, string>,
  seconds: number,
  logFile: string,
): Promise<FlagsRun> {
  const log = openSync(logFile, 'a')
  const [command, args] = pinned(SERVER_CORE, process.execPath, [...FLAG_SETS[name]!, 'dist/server.js'])
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(PORT),
      RATE_LIMIT_MAX: '1000000000',
      ...env,
    },
    stdio: ['ignore', log, log],
  })
  closeSync(log)
  const url = `http://127.0.0.1:${PORT}`
  try {
    await waitReady(url)
    for (const path of ['/docs/', '/dashboard/', '/openapi.json']) await (await fetch(`${url}${path}`)).arrayBuffer()
    const parties = await createParties(url, { campaigns: 10, characters: 5 })
    const targets = targetsOf(parties)
    await load({ url, connections: 1, amount: 100, requests: rollRequests(targets) })
    const before = cpuTicks(child.pid!)
    const { requests } = await load({ url, connections: 10, duration: seconds, requests: rollRequests(targets) })
    const cpuUs = (cpuTicks(child.pid!) - before) * 10_000
    return {
      flags: name,
      database,
      rssAfterMb: Math.round(status(child.pid!, 'VmRSS') / 1024),
      rssPeakMb: Math.round(status(child.pid!, 'VmHWM') / 1024),
      cpuPerRollUs: Math.round(cpuUs / requests),
      rolls: requests,
    }
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  }
}

export async function benchNodeFlags(options: {
  seconds: number
  rounds: number
  databases: FlagsRun['database'][]
  workDir: string
  pgPort: number
}) {
  const postgres = await startPostgres(join(options.workDir, 'pg-flags'), options.pgPort)
  const runs: FlagsRun[] = []
  const dataDir = join(options.workDir, 'flags-pglite')
  const logFile = join(options.workDir, 'node-flags.log')
  try {
    for (let round = 0; round < options.rounds; round++)
      for (const name of Object.keys(FLAG_SETS)) {
        const databaseUrl = await postgres.createDatabase(`nerve_flags_${round}_${runs.length}`)
        rmSync(dataDir, { recursive: true, force: true })
        mkdirSync(dataDir, { recursive: true })
        const envs = { PostgreSQL: { DATABASE_URL: databaseUrl }, PGlite: { DATA_DIR: dataDir } }
        for (const database of options.databases) {
          const run = await measure(name, database, envs[database], options.seconds, logFile)
          runs.push(run)
          console.log(
            `  ${run.database.padEnd(10)} ${run.flags.padEnd(28)} RSS after ${run.rssAfterMb} MB, peak ${run.rssPeakMb} MB; ${run.cpuPerRollUs} µs CPU per roll (${run.rolls} rolls)`,
          )
        }
      }
  } finally {
    await postgres.stop()
  }
  const summary = Object.keys(FLAG_SETS).flatMap((name) =>
    options.databases.map((database) => {
      const mine = runs.filter((run) => run.flags === name && run.database === database)
      const image = runs.filter((run) => run.flags === 'image' && run.database === database)
      const cpu = median(mine.map((run) => run.cpuPerRollUs))
      return {
        flags: name,
        database,
        rssPeakMb: median(mine.map((run) => run.rssPeakMb)),
        cpuPerRollUs: cpu,
        cpuOfImage: cpu / median(image.map((run) => run.cpuPerRollUs)),
      }
    }),
  )
  return { runs, summary }
}

if (process.argv[1]?.endsWith('node-flags.ts')) {
  pinSelf()
  const [, , seconds = '10', rounds = '2', databases = 'PostgreSQL,PGlite'] = process.argv
  const { summary } = await benchNodeFlags({
    seconds: Number(seconds),
    rounds: Number(rounds),
    databases: databases.split(',') as FlagsRun['database'][],
    workDir: '/tmp/nerve-bench',
    pgPort: 56546,
  })
  console.log('medians (CPU per roll as a share of the image flags, same run):')
  for (const row of summary)
    console.log(
      `  ${row.database.padEnd(10)} ${row.flags.padEnd(28)} RSS peak ${row.rssPeakMb} MB, ${row.cpuPerRollUs} µs per roll = ${Math.round(row.cpuOfImage * 100)} %`,
    )
}
