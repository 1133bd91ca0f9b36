import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { NO_LIMITS } from './config.js'

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url))

export interface ServerProcess {
  child: ChildProcess
  base: string
  exited: Promise<[number | null, NodeJS.Signals | null]>
  output(): string
}

/** `src/server.ts` in its own process on 127.0.0.1, configured only by the given environment (limits off unless it says). */
export function startServer(port: number, env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...NO_LIMITS, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  child.stdout!.on('data', (chunk) => (output += chunk))
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  return { child, base: `http://127.0.0.1:${port}`, exited, output: () => output }
}

/** Waits until `/health/ready` answers 200; a loaded CI machine may take a while to start the embedded database. */
export async function untilReady(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`)
    const ready = await fetch(`${server.base}/health/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (res) => res.ok,
      () => false,
    )
    if (ready) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the server never became ready: ${server.output()}`)
}

/** A JSON call that must succeed; stops the test with the answer otherwise. */
export async function call(base: string, path: string, key: string | null, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  })
  const json = await res.json()
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
