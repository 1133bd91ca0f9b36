import t from 'tap'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { NO_LIMITS } from './helpers/config.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url))

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

function startServer(env: Record<string, string>, [command, ...args] = [process.execPath, '--import', 'tsx', SERVER]) {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...NO_LIMITS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  return { child, exited, output: () => output }
}

/** Waits for the listening log line; a loaded CI machine may take a while to start the embedded database. */
async function waitForListening(server: ReturnType<typeof startServer>, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs
  while (!server.output().includes('Server listening')) {
    if (server.child.exitCode !== null) throw new Error(`the server exited early:\n${server.output()}`)
    if (Date.now() > deadline) throw new Error(`the server never listened:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

t.test('the server refuses to start with a bad setting and names the variable', async (t) => {
  const server = startServer({ PORT: 'not-a-port', DATA_DIR: t.testdir() })
  const [code] = await server.exited
  t.equal(code, 1, 'exits with status 1')
  t.match(server.output(), 'PORT must be integer', 'the message names PORT')
})

t.test('the server listens, serves, and shuts down gracefully on SIGTERM', async (t) => {
  const port = await freePort()
  const server = startServer({ PORT: String(port), DATA_DIR: t.testdir() })
  t.teardown(() => server.child.kill('SIGKILL'))
  await waitForListening(server)

  const ready = await fetch(`http://127.0.0.1:${port}/health/ready`)
  t.equal(ready.status, 200, 'ready on the embedded database')
  const docs = await fetch(`http://127.0.0.1:${port}/docs`)
  t.equal(docs.status, 200, 'Swagger UI is served at /docs')
  t.match(
    server.output(),
    `Swagger UI at http://127.0.0.1:${port}/docs, the GM dashboard at http://127.0.0.1:${port}/dashboard`,
    'the start-up log gives the URLs of Swagger UI and the dashboard',
  )

  const inFlight = fetch(`http://127.0.0.1:${port}/docs/json`)
  server.child.kill('SIGTERM')
  t.equal((await inFlight).status, 200, 'a request in flight when the signal came still gets its answer')
  const [code] = await server.exited
  t.equal(code, 0, 'exits cleanly')
  t.match(server.output(), '"signal":"SIGTERM"', 'logs the shutdown')
})

t.test(
  'a second instance on the same data folder stops at once and says why; a crashed one leaves it free',
  async (t) => {
    const dataDir = t.testdir()
    const first = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir })
    t.teardown(() => first.child.kill('SIGKILL'))
    await waitForListening(first)

    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir })
    const [code] = await second.exited
    t.equal(code, 1, 'the second exits with status 1')
    t.match(
      second.output(),
      `nerve: another Nerve (pid ${first.child.pid}) is already using ${dataDir}: stop it, or give this one its own DATA_DIR`,
      'naming the running one and the way out',
    )
    t.equal(first.child.exitCode, null, 'the first keeps running')

    first.child.kill('SIGKILL')
    await first.exited
    const third = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir })
    t.teardown(() => third.child.kill('SIGKILL'))
    await waitForListening(third)
    t.match(third.output(), 'Server listening', 'after a crash the folder is free again')
  },
)

t.test('logs are JSON with request ids and never show the Authorization header', async (t) => {
  const port = await freePort()
  const server = startServer({ PORT: String(port), DATA_DIR: 'memory://' })
  t.teardown(() => server.child.kill('SIGKILL'))
  await waitForListening(server)
  await fetch(`http://127.0.0.1:${port}/health/live`, {
    headers: { authorization: 'Bearer nrv_gm_supersecretvalue', 'x-request-id': 'trace-me-123' },
  })
  server.child.kill('SIGTERM')
  await server.exited
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
  t.ok(
    lines.some((line) => line.reqId === 'trace-me-123'),
    'the caller-supplied request id is logged',
  )
  t.notMatch(server.output(), 'supersecretvalue', 'the key never reaches the log')
})

t.test(
  'the process `npm start` runs stays under 250 MB while a GM opens the docs and the console and rolls',
  { skip: existsSync('/proc/self/status') ? false : 'needs /proc to read the resident set size' },
  async (t) => {
    const scripts = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).scripts as Record<string, string>
    // tap puts its loaders in every child's NODE_OPTIONS; tsc must run as npm runs it, without them.
    execFileSync('env', ['-u', 'NODE_OPTIONS', 'npm', 'run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' })
    const [node, ...args] = scripts.start!.split(' ')
    t.equal(node, 'node', 'npm start runs node itself, so its pid is the server')
    const port = await freePort()
    // `env` execs node in its own process, so the pid read below is the server's.
    const server = startServer({ PORT: String(port), DATA_DIR: t.testdir() }, [
      'env',
      '-u',
      'NODE_OPTIONS',
      'node',
      ...args,
    ])
    t.teardown(() => server.child.kill('SIGKILL'))
    await waitForListening(server)

    const base = `http://127.0.0.1:${port}`
    for (const page of ['/', '/docs', '/docs/json', '/dashboard', '/v1/rulesets']) {
      t.equal((await fetch(base + page)).status, 200, `GET ${page}`)
    }
    const json = { 'content-type': 'application/json' }
    const created = await fetch(`${base}/v1/campaigns`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Mercy Street', ruleset: 'shock-meters' }),
    }).then((response) => response.json() as Promise<{ campaign: { id: string }; gmKey: { key: string } }>)
    const gm = { ...json, authorization: `Bearer ${created.gmKey.key}` }
    const campaign = `${base}/v1/campaigns/${created.campaign.id}`
    const character = await fetch(`${campaign}/characters`, {
      method: 'POST',
      headers: gm,
      body: JSON.stringify({ name: 'Vera Okafor' }),
    }).then((response) => response.json() as Promise<{ character: { id: string } }>)
    for (let roll = 0; roll < 20; roll++) {
      const answer = await fetch(`${campaign}/characters/${character.character.id}/stress-check`, {
        method: 'POST',
        headers: gm,
        body: JSON.stringify({ request: { meter: 'violence', rank: 1 } }),
      })
      t.equal(answer.status, 201, `roll ${roll + 1} is recorded`, { body: await answer.text() })
    }

    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8')
    const residentMb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024
    t.ok(residentMb < 250, `resident set ${Math.round(residentMb)} MB < 250 MB`)
  },
)
