import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { openSync, closeSync, readFileSync, readdirSync } from 'node:fs'
import { setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'

/** Messages bench/server.mjs understands. */
type ToServer =
  | { type: 'memory' }
  | { type: 'cpu' }
  | { type: 'timings'; reset: boolean }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'stop' }

interface MemorySample {
  rss: number
  heapTotal: number
  heapUsed: number
  external: number
  arrayBuffers: number
  /** V8 heap spaces at the sample, used bytes. */
  spaces: Record<string, number>
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The node flags the Docker image runs with (its `ENV NODE_OPTIONS`, a bounded heap), read from
 * the Dockerfile so the benchmarks measure the server as shipped and cannot drift from it.
 */
export function imageNodeOptions(): string {
  const match = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(readFileSync(`${ROOT}/Dockerfile`, 'utf8'))
  if (!match) throw new Error('the Dockerfile sets no NODE_OPTIONS')
  return match[1]!
}

/** The node flags of the image's CMD, which NODE_OPTIONS may not carry (`--liftoff-only`). */
function imageCommandFlags(): string[] {
  const match = /^CMD (\[.*\])$/m.exec(readFileSync(`${ROOT}/Dockerfile`, 'utf8'))
  if (!match) throw new Error('the Dockerfile has no CMD')
  return (JSON.parse(match[1]!) as string[]).filter((word) => word.startsWith('--'))
}

/** Every node flag the image runs the server with: its NODE_OPTIONS, then its CMD's. */
export function imageFlags(): string[] {
  return [...imageNodeOptions().split(' '), ...imageCommandFlags()]
}

/** The two cores of the benchmark machine: the server gets one, the load generator the other. */
export const SERVER_CORE = '0'
export const LOAD_CORE = '1'

export const hasTaskset = spawnSync('taskset', ['--version']).status === 0

/** Pins this process (every thread of it) to the load generator's core. */
export function pinSelf(): boolean {
  if (!hasTaskset) return false
  return spawnSync('taskset', ['-a', '-cp', LOAD_CORE, String(process.pid)]).status === 0
}

/**
 * Sets the scheduling niceness of every thread of this process (Linux keeps it per thread): a
 * positive value lets the load generator and its receiver, which stand in for clients on other
 * machines, yield the core to the service's processes. Only root may set it back lower; false
 * when a thread refused.
 */
export function setOwnNiceness(nice: number): boolean {
  let all = true
  for (const thread of readdirSync('/proc/self/task')) {
    try {
      setPriority(Number(thread), nice)
    } catch {
      all = false
    }
  }
  return all
}

/** Runs a command pinned to a core where taskset exists. */
export function pinned(core: string, command: string, args: string[]): [string, string[]] {
  return hasTaskset ? ['taskset', ['-c', core, command, ...args]] : [command, args]
}

interface Timings {
  [label: string]: number[]
}

export interface BenchServer {
  pid: number
  port: number
  url: string
  idle: MemorySample
  memory(): Promise<{ current: MemorySample; peak: MemorySample }>
  /** The server process's CPU time so far (user and system, every thread), in µs. */
  cpu(): Promise<number>
  timings(reset?: boolean): Promise<Timings>
  startProfile(): Promise<void>
  /** Writes the CPU profile taken since startProfile to `file`. */
  stopProfile(file: string): Promise<void>
  stop(): Promise<void>
}

export interface ServerOptions {
  env: Record<string, string>
  port: number
  logFile: string
  /** Extra node flags, e.g. `--cpu-prof`; they override the image's NODE_OPTIONS where both set one. */
  nodeArgs?: string[]
}

function request<T>(child: ChildProcess, message: ToServer, reply: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (received: { type: string }) => {
      if (received.type !== reply) return
      child.off('message', onMessage)
      resolve(received as T)
    }
    child.on('message', onMessage)
    child.send(message, (err) => err && reject(err))
  })
}

/** What the server and the worker start with, as the image starts them. */
function processEnv() {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'info',
    // As the Dockerfile sets it: Prisma then builds minimal errors, with no call site captured per query.
    NODE_ENV: 'production',
    NODE_OPTIONS: imageNodeOptions(),
  }
}

/**
 * Starts bench/server.mjs (the compiled server: run `npm run build` first) on the server core,
 * with the image's NODE_OPTIONS and CMD flags; resolves when it listens.
 */
export async function startServer(options: ServerOptions): Promise<BenchServer> {
  const log = openSync(options.logFile, 'a')
  const [command, args] = pinned(SERVER_CORE, process.execPath, [
    ...imageCommandFlags(),
    ...(options.nodeArgs ?? []),
    'bench/server.mjs',
  ])
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...processEnv(),
      HOST: '127.0.0.1',
      PORT: String(options.port),
      // Rate limiting stays on, so its cost is measured, but no benchmark client may reach it.
      RATE_LIMIT_MAX: '1000000000',
      ...options.env,
    },
    stdio: ['ignore', log, log, 'ipc'],
  })
  closeSync(log)
  const ready = await new Promise<{ idle: MemorySample }>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`bench server exited with ${code}; see ${options.logFile}`))
    child.once('exit', onExit)
    child.on('message', (message: { type: string; idle: MemorySample }) => {
      if (message.type !== 'ready') return
      child.off('exit', onExit)
      resolve(message)
    })
  })
  return {
    pid: child.pid!,
    port: options.port,
    url: `http://127.0.0.1:${options.port}`,
    idle: ready.idle,
    memory: () => request(child, { type: 'memory' }, 'memory'),
    cpu: async () => {
      const { usage } = await request<{ usage: NodeJS.CpuUsage }>(child, { type: 'cpu' }, 'cpu')
      return usage.user + usage.system
    },
    timings: async (reset = true) =>
      (await request<{ timings: Timings }>(child, { type: 'timings', reset }, 'timings')).timings,
    startProfile: async () => void (await request(child, { type: 'profile-start' }, 'profile-started')),
    stopProfile: async (file) => void (await request(child, { type: 'profile-stop', file }, 'profile-stopped')),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.send({ type: 'stop' } satisfies ToServer)
        setTimeout(() => child.kill('SIGKILL'), 20_000).unref()
      }),
  }
}

/** `node --liftoff-only dist/worker.js` (the webhook dispatcher alone, with the image's flags) on the given core; stopped with SIGTERM. */
export async function startWorker(options: { env: Record<string, string>; core: string; logFile: string }) {
  const log = openSync(options.logFile, 'a')
  // As docs/DEPLOY.md runs the worker from the image.
  const [command, args] = pinned(options.core, process.execPath, [...imageCommandFlags(), 'dist/worker.js'])
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...processEnv(), ...options.env },
    stdio: ['ignore', log, log],
  })
  closeSync(log)
  // The worker logs once it has started its dispatcher; a short wait covers its start.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}; see ${options.logFile}`)
  return {
    /** taskset execs node in its own process: this is the worker's pid. */
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
