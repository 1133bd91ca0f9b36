import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'

/**
 * A private PostgreSQL for one benchmark run, with the server's default durability
 * (fsync and synchronous_commit on): pgbench and Nerve run against these same settings.
 * Only what a benchmark needs differs from the defaults, and each is listed in SETTINGS.
 */
export const SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  max_connections: '200',
  shared_buffers: '512MB',
  // Seeding a million events writes a lot of WAL; larger checkpoints keep it from stalling.
  max_wal_size: '4GB',
}

export interface BenchPostgres {
  url: string
  version: string
  bin: string
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
  /** A database URL for another database on this server (created empty). */
  createDatabase(name: string): Promise<string>
  stop(): Promise<void>
}

function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : []
  const last = versions.at(-1)
  if (!last) throw new Error('PostgreSQL server binaries not found (install postgresql or set PG_BIN)')
  return join(root, last, 'bin')
}

/** Runs a server binary as its owner (PostgreSQL refuses to run as root); a failure says what it printed. */
function asOwner(cmd: string, args: string[]) {
  const [command, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
  try {
    execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const { stderr } = error as { stderr?: Buffer }
    throw new Error(`${cmd.split('/').pop()} failed: ${stderr?.toString().trim() ?? String(error)}`, { cause: error })
  }
}

export async function startPostgres(dir: string, port: number): Promise<BenchPostgres> {
  const bin = postgresBin()
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(dir, uid, gid)
  }
  asOwner(join(bin, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres'])
  const options = [`-p ${port}`, `-k ${dir}`, ...Object.entries(SETTINGS).map(([k, v]) => `-c ${k}=${v}`)].join(' ')
  asOwner(join(bin, 'pg_ctl'), ['-D', dir, '-w', '-l', join(dir, 'log'), '-o', options, 'start'])
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`
  const pool = new pg.Pool({ connectionString: url, max: 2 })
  const query = async <Row>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as Row[]
  const [{ server_version: version } = { server_version: '?' }] = await query<{ server_version: string }>(
    'SHOW server_version',
  )
  return {
    url,
    version,
    bin,
    query,
    async createDatabase(name) {
      await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await query(`CREATE DATABASE ${name}`)
      return `postgresql://postgres@127.0.0.1:${port}/${name}`
    },
    async stop() {
      await pool.end()
      try {
        asOwner(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** Runs a query on one database of the server. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Clock ticks a second in /proc's CPU times (USER_HZ): 100 on Linux. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

/** The fields of /proc/PID/stat after the command name (which may hold spaces; they do not), from the state on. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** utime, stime, cutime, cstime of a process, in ticks (/proc/PID/stat, fields 14–17), or zeros once it has gone. */
function cpuTimes(pid: number): number[] {
  try {
    return statFields(pid).slice(11, 15).map(Number)
  } catch {
    return [0, 0, 0, 0]
  }
}

/** The CPU time a process has used so far (user and system), in µs; 0 once it has gone. */
export function processCpuMicros(pid: number): number {
  const [utime = 0, stime = 0] = cpuTimes(pid)
  return ((utime + stime) * 1_000_000) / TICKS_PER_SECOND
}

/**
 * The CPU time every process of a PostgreSQL server has used, in µs: the postmaster's own and
 * that of its children gone (backends that ended, counted into it), and of those still running
 * (the WAL writer, checkpointer, autovacuum, backends). The server's processes are those of the
 * postmaster found through a connection (the parent of its backend); it runs on this machine.
 */
export async function postgresCpuMicros(url: string): Promise<number> {
  const postmaster = await withClient(url, async (client) => {
    const {
      rows: [row],
    } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS "pid"')
    return Number(statFields(row!.pid)[1]) // the backend's parent
  })
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = cpuTimes(postmaster)
  const children = readdirSync(`/proc/${postmaster}/task`).flatMap((task) =>
    readFileSync(`/proc/${postmaster}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  )
  const ticks = children.reduce(
    (sum, pid) => {
      const [u = 0, s = 0] = cpuTimes(pid)
      return sum + u + s
    },
    utime + stime + cutime + cstime,
  )
  return (ticks * 1_000_000) / TICKS_PER_SECOND
}
