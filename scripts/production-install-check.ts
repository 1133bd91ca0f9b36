/**
 * The production install check, without a container engine (issue 34; CI runs it).
 *
 *   npm run check:production
 *
 * 1. Builds the runtime file set as the Dockerfile's stages do, by reading the Dockerfile: each
 *    stage gets a folder under a fresh temporary one (its `/app`); `COPY` copies from the build
 *    context (the files git tracks or would track, as .dockerignore leaves them) or from an
 *    earlier stage's folder; `RUN` runs in the stage's folder. The final stage's `RUN` lines
 *    prepare the image's system (its `/data`) and are not run: the check gives DATA_DIR a folder.
 * 2. Holds the runtime folder's node_modules to what the compiled code needs: no Prisma CLI,
 *    TypeScript, tsx or esbuild, at most 120 MB, and every package `dist/` imports resolvable
 *    from there (also those imported only on some paths).
 * 3. Starts the server as the image does (its ENV and CMD, a free port, WEBHOOK_DISPATCHER=off)
 *    and a worker (`node dist/worker.js`, the same flags) from that folder against a fresh
 *    PostgreSQL database, and checks: every migration applied on start, ready, /docs,
 *    /dashboard, a roll, its webhook delivered by the worker to a receiver on 127.0.0.1, the
 *    image's HEALTHCHECK, and a clean stop of both on SIGTERM.
 *
 * TEST_DATABASE_URL: a PostgreSQL URL whose user may create databases (a database is created for
 * the check and dropped after it); without it a throwaway cluster is started
 * (scripts/throwaway-postgres.sh, as root or as the postgres user). NERVE_CHECK_KEEP=1 keeps
 * the temporary folder. Exits 1 on the first failed check.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUNTIME_LIMIT_MB = 120
/** Build-time tools that must not be in the runtime node_modules. */
const BUILD_ONLY = ['prisma', 'typescript', 'tsx', 'esbuild', 'effect', '@prisma/engines', '@prisma/studio-core']
const STARTUP_LIMIT_MS = 120_000

const started = Date.now()
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
const say = (message: string) => console.log(`[production check ${seconds()}] ${message}`)

class CheckFailed extends Error {}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message)
}

// ── the Dockerfile ─────────────────────────────────────────────────────────────────────────────

interface Stage {
  name: string
  instructions: { keyword: string; args: string }[]
}

function readDockerfile(): Stage[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ')
  const stages: Stage[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? []
    if (keyword === 'FROM') {
      const name = / AS (\S+)$/i.exec(args)?.[1]
      check(name, `Dockerfile: every stage needs a name (FROM … AS name): ${line}`)
      stages.push({ name, instructions: [] })
    } else {
      check(stages.length > 0, `Dockerfile: ${keyword} before FROM`)
      stages.at(-1)!.instructions.push({ keyword, args: args.replace(/\s+/g, ' ') })
    }
  }
  return stages
}

/** `KEY=value KEY2="a b"` as Docker reads ENV. */
function parseEnv(args: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const match of args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)) env[match[1]!] = match[3] ?? match[2]!
  return env
}

/** The build context: what git tracks or would track (.dockerignore leaves out the same). */
function copyContext(to: string) {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  for (const file of files.split('\0')) {
    if (!file || !existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(to, file)), { recursive: true })
    cpSync(join(ROOT, file), join(to, file))
  }
}

function copy(sources: string[], destination: string) {
  const intoFolder = destination.endsWith('/') || sources.length > 1
  for (const source of sources) {
    check(existsSync(source), `COPY: ${source} does not exist`)
    const target =
      intoFolder && !statSync(source).isDirectory() ? join(destination, source.split('/').at(-1)!) : destination
    mkdirSync(statSync(source).isDirectory() ? target : dirname(target), { recursive: true })
    cpSync(source, target, { recursive: true })
  }
}

/**
 * The environment of a build stage's RUN: this one without what `npm run` and tsx put in it
 * (npm's own variables name this repository as the prefix; its node_modules/.bin is on PATH).
 */
function buildEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS' && key !== 'INIT_CWD'),
  )
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((entry) => !entry.includes('node_modules'))
    .join(':')
  // The npm cache is CI's own: a package already in it is not asked for again.
  return { ...env, npm_config_prefer_offline: 'true' }
}

interface Image {
  folder: string
  env: Record<string, string>
  cmd: string[]
  healthcheck: string | undefined
}

function buildStages(work: string): Image {
  const stages = readDockerfile()
  const context = join(work, 'context')
  copyContext(context)
  say('build context copied')
  const folders = new Map<string, string>()
  let image: Image | undefined
  for (const [index, stage] of stages.entries()) {
    const folder = join(work, stage.name)
    const final = index === stages.length - 1
    mkdirSync(folder)
    folders.set(stage.name, folder)
    let env: Record<string, string> = {}
    let cmd: string[] = []
    let healthcheck: string | undefined
    /** The stage's /app, or an earlier stage's, in its folder. */
    const inStage = (path: string, base: string) => {
      if (path === '/app' || path.startsWith('/app/')) return join(base, path.slice('/app'.length))
      check(!path.startsWith('/'), `Dockerfile (${stage.name}): only paths under /app are known here: ${path}`)
      return join(base, path)
    }
    for (const { keyword, args } of stage.instructions) {
      switch (keyword) {
        case 'WORKDIR':
          check(args === '/app', `Dockerfile (${stage.name}): the check maps WORKDIR /app to each stage's folder`)
          break
        case 'COPY': {
          const words = args.split(' ')
          const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length)
          const paths = words.filter((word) => !word.startsWith('--'))
          const base = from ? folders.get(from) : context
          check(base, `Dockerfile (${stage.name}): COPY --from=${from}: no such stage before`)
          const destination = paths.pop()!
          copy(
            paths.map((path) => (from ? inStage(path, base) : join(base, path))),
            inStage(destination, folder) + (destination.endsWith('/') ? '/' : ''),
          )
          break
        }
        case 'RUN':
          if (final) break
          say(`${stage.name}: RUN ${args}`)
          {
            const { status } = spawnSync('sh', ['-c', args], {
              cwd: folder,
              stdio: ['ignore', 'inherit', 'inherit'],
              env: { ...buildEnv(), ...env },
            })
            check(status === 0, `Dockerfile (${stage.name}): RUN ${args} exited with ${status}`)
          }
          break
        case 'ENV':
          env = { ...env, ...parseEnv(args) }
          break
        case 'CMD':
          cmd = JSON.parse(args) as string[]
          break
        case 'HEALTHCHECK':
          healthcheck = /\bCMD (.*)$/.exec(args)?.[1]
          break
        case 'USER':
        case 'EXPOSE':
        case 'VOLUME':
          break
        default:
          throw new CheckFailed(`Dockerfile (${stage.name}): the check does not know ${keyword}`)
      }
    }
    if (final) image = { folder, env, cmd, healthcheck }
  }
  check(image && image.cmd.length > 0, 'Dockerfile: the final stage has no CMD')
  return image
}

// ── the runtime node_modules ───────────────────────────────────────────────────────────────────

function sizeMb(folder: string): number {
  return Number(execFileSync('du', ['-sm', folder], { encoding: 'utf8' }).split('\t')[0])
}

function filesUnder(folder: string, suffix: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(folder, file))
}

function checkModules(image: Image): number {
  const modules = join(image.folder, 'node_modules')
  for (const name of BUILD_ONLY) check(!existsSync(join(modules, name)), `the runtime node_modules holds ${name}`)
  for (let folder = dirname(image.folder); folder !== dirname(folder); folder = dirname(folder)) {
    check(!existsSync(join(folder, 'node_modules')), `${folder}/node_modules would hide a missing package`)
  }
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--omit=optional', '--all'], {
    cwd: image.folder,
    encoding: 'utf8',
    env: buildEnv(),
  })
  check(ls.status === 0, `npm ls in the runtime folder: ${ls.stdout}${ls.stderr}`)

  // Every package the compiled code imports, statically or not, resolves from the runtime folder.
  const specifiers = new Set<string>()
  for (const file of filesUnder(join(image.folder, 'dist'), '.js')) {
    const source = readFileSync(file, 'utf8')
    for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"'./][^"']*)\1/g)) {
      if (!match[2]!.startsWith('node:')) specifiers.add(match[2]!)
    }
  }
  const unresolved = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const missing = []
for (const specifier of JSON.parse(process.argv[1])) {
  try { import.meta.resolve(specifier) } catch { missing.push(specifier) }
}
console.log(JSON.stringify(missing))`,
      JSON.stringify([...specifiers]),
    ],
    { cwd: image.folder, encoding: 'utf8', env: { PATH: buildEnv().PATH } },
  )
  const missing = JSON.parse(unresolved.stdout || '["(the resolver failed)"]') as string[]
  check(
    missing.length === 0,
    `dist/ imports what the production install lacks: ${missing.join(', ')} (a dependency in devDependencies?)`,
  )
  say(`every one of the ${specifiers.size} packages dist/ imports resolves from the runtime folder`)

  const size = sizeMb(modules)
  check(size <= RUNTIME_LIMIT_MB, `the runtime node_modules is ${size} MB, over ${RUNTIME_LIMIT_MB} MB`)
  say(`runtime node_modules: ${size} MB (limit ${RUNTIME_LIMIT_MB} MB), no build tools in it`)
  return size
}

// ── running it ─────────────────────────────────────────────────────────────────────────────────

interface Running {
  child: ChildProcess
  output: () => string
  exited: Promise<unknown[]>
}

function run(image: Image, script: string, env: Record<string, string>): Running {
  const [node, ...args] = image.cmd.map((word) => (word === 'dist/server.js' ? script : word))
  // Nothing of this process's environment (tsx's loader in NODE_OPTIONS, npm's settings) leaks in.
  const child = spawn(node!, args, {
    cwd: image.folder,
    env: { PATH: buildEnv().PATH!, ...image.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return { child, output: () => output, exited: once(child, 'exit') }
}

async function waitFor(what: string, limitMs: number, probe: () => Promise<boolean> | boolean, died?: Running) {
  const deadline = Date.now() + limitMs
  for (;;) {
    if (await probe()) return
    if (died)
      check(died.child.exitCode === null, `${what}: the process exited (${died.child.exitCode})\n${died.output()}`)
    check(Date.now() < deadline, `${what}: not within ${limitMs / 1000} s`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  return port
}

interface Delivery {
  body: string
  payload: { type?: string; data?: { id?: string } }
}

async function startReceiver() {
  const received: Delivery[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      try {
        received.push({ body, payload: JSON.parse(body) as Delivery['payload'] })
      } catch {
        received.push({ body, payload: {} })
      }
      response.writeHead(204).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() }
}

async function database(work: string, cleanups: (() => unknown)[]): Promise<string> {
  let admin = process.env.TEST_DATABASE_URL
  if (!admin) {
    const folder = join(work, 'postgres')
    const port = 20000 + Math.floor(Math.random() * 20000)
    if (process.getuid?.() === 0) execFileSync('chmod', ['755', work])
    admin = execFileSync(join(ROOT, 'scripts/throwaway-postgres.sh'), ['start', folder, String(port)], {
      encoding: 'utf8',
    }).trim()
    cleanups.push(() => execFileSync(join(ROOT, 'scripts/throwaway-postgres.sh'), ['stop', folder]))
    say(`no TEST_DATABASE_URL: a throwaway PostgreSQL on port ${port}`)
  }
  const name = `nerve_production_check_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: admin })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await dropper.end()
  })
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

async function exercise(image: Image, work: string, databaseUrl: string) {
  const migrations = readdirSync(join(image.folder, 'prisma/migrations'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  const receiver = await startReceiver()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const common = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(work, 'data'),
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  }
  const server = run(image, 'dist/server.js', { ...common, PORT: String(port), WEBHOOK_DISPATCHER: 'off' })
  let worker: Running | undefined
  try {
    const ready = async () => (await fetch(`${base}/health/ready`).catch(() => undefined))?.status === 200
    await waitFor('the server ready (GET /health/ready 200)', STARTUP_LIMIT_MS, ready, server)
    say(`server ready from the runtime folder (${image.cmd.join(' ')})`)

    const applied = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"database migrations applied"'))
      .flatMap((line) => (JSON.parse(line) as { applied: string[] }).applied)
    check(
      JSON.stringify(applied.sort()) === JSON.stringify(migrations),
      `the server applied ${JSON.stringify(applied)} on start; prisma/migrations holds ${JSON.stringify(migrations)}`,
    )
    const recorded = new pg.Client({ connectionString: databaseUrl })
    await recorded.connect()
    const { rows } = await recorded.query<{ count: string }>('SELECT count(*) FROM _nerve_migrations')
    await recorded.end()
    check(Number(rows[0]!.count) === migrations.length, `_nerve_migrations holds ${rows[0]!.count} migrations`)
    say(`the ${migrations.length} migrations were applied on start and recorded`)

    worker = run(image, 'dist/worker.js', { ...common, WEBHOOK_POLL_INTERVAL_MS: '200' })
    await waitFor(
      'the worker started',
      STARTUP_LIMIT_MS,
      () => worker!.output().includes('webhook worker started'),
      worker,
    )
    say(`worker started from the runtime folder (${image.cmd.join(' ').replace('dist/server.js', 'dist/worker.js')})`)

    for (const [path, contains] of [
      ['/docs', 'swagger'],
      ['/docs/json', '"openapi"'],
      ['/dashboard', '<html'],
    ] as const) {
      const response = await fetch(base + path)
      const body = await response.text()
      check(response.status === 200 && body.toLowerCase().includes(contains), `GET ${path}: ${response.status}`)
    }
    say('GET /docs, /docs/json, /dashboard: 200')

    const json = { 'content-type': 'application/json' }
    const post = async (url: string, body: unknown, headers: Record<string, string> = json) => {
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })
      const text = await response.text()
      check(response.status === 201, `POST ${url}: ${response.status} ${text}`)
      return JSON.parse(text) as Record<string, { id: string; key: string }>
    }
    const created = await post(`${base}/v1/campaigns`, { name: 'Production check', ruleset: 'shock-meters' })
    const gm = { ...json, authorization: `Bearer ${created.gmKey!.key}` }
    const campaign = `${base}/v1/campaigns/${created.campaign!.id}`
    const character = await post(`${campaign}/characters`, { name: 'Vera Okafor' }, gm)
    await post(`${campaign}/webhooks`, { url: receiver.url }, gm)
    const roll = await post(
      `${campaign}/characters/${character.character!.id}/stress-check`,
      { request: { meter: 'violence', rank: 4 } },
      gm,
    )
    say(`a stress check rolled and recorded (event ${roll.event!.id})`)

    const delivered = () => receiver.received.some((delivery) => delivery.payload.data?.id === roll.event!.id)
    await waitFor('the roll delivered to the webhook receiver by the worker', 30_000, delivered, worker)
    say(`the roll's webhook delivered to ${receiver.url} by the worker`)

    if (image.healthcheck) {
      const health = spawnSync('sh', ['-c', image.healthcheck], {
        cwd: image.folder,
        env: { PATH: buildEnv().PATH!, ...image.env, PORT: String(port) },
        timeout: 10_000,
      })
      check(health.status === 0, `the image's HEALTHCHECK failed (${health.status}): ${String(health.stderr)}`)
      say("the image's HEALTHCHECK passes")
    }

    for (const [name, running] of [
      ['server', server],
      ['worker', worker],
    ] as const) {
      running.child.kill('SIGTERM')
      const [code] = await Promise.race([
        running.exited,
        new Promise<unknown[]>((done) => setTimeout(done, 30_000, ['timeout'])),
      ])
      check(code === 0, `the ${name} stopped with ${String(code)} on SIGTERM\n${running.output()}`)
    }
    say('server and worker stopped cleanly on SIGTERM')
  } catch (error) {
    if (error instanceof CheckFailed) {
      console.error(`--- server output ---\n${server.output()}`)
      if (worker) console.error(`--- worker output ---\n${worker.output()}`)
    }
    throw error
  } finally {
    server.child.kill('SIGKILL')
    worker?.child.kill('SIGKILL')
    receiver.close()
  }
}

const work = mkdtempSync(join(tmpdir(), 'nerve-production-check-'))
const cleanups: (() => unknown)[] = []
let failed = false
try {
  const image = buildStages(work)
  say(`runtime folder built: ${image.folder}`)
  const size = checkModules(image)
  await exercise(image, work, await database(work, cleanups))
  console.log(`production install check: ok (runtime node_modules ${size} MB, ${seconds()})`)
} catch (error) {
  failed = true
  console.error(
    `production install check: FAILED after ${seconds()}: ${error instanceof Error ? error.message : String(error)}`,
  )
  if (!(error instanceof CheckFailed)) console.error(error)
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined)
  if (process.env.NERVE_CHECK_KEEP === '1') console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
