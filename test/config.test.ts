import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import t from 'tap'
import {
  ConfigError,
  corsOrigins,
  defaultMaxHeapUsedBytes,
  HEAP_SHED_FRACTION,
  loadConfig,
  trustProxy,
} from '../src/config.js'

t.test('defaults give a working configuration on the embedded database', async (t) => {
  const config = loadConfig({})
  t.equal(config.PORT, 3000, 'PORT defaults to 3000')
  t.equal(config.HOST, '127.0.0.1', 'HOST defaults to loopback')
  t.equal(config.DATA_DIR, './data', 'DATA_DIR defaults to ./data')
  t.equal(config.DATABASE_URL, undefined, 'no DATABASE_URL means PGlite')
  t.equal(config.LOG_LEVEL, 'info')
})

t.test('values are read from the environment and converted to their types', async (t) => {
  const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgresql://nerve@db:5432/nerve', LOG_LEVEL: 'debug' })
  t.equal(config.PORT, 8080, 'PORT becomes a number')
  t.equal(config.DATABASE_URL, 'postgresql://nerve@db:5432/nerve')
  t.equal(config.LOG_LEVEL, 'debug')
})

t.test('named prepared statements are on unless DATABASE_PREPARED_STATEMENTS=off (a transaction pooler)', async (t) => {
  t.equal(loadConfig({}).DATABASE_PREPARED_STATEMENTS, 'on', 'on by default')
  t.equal(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).DATABASE_PREPARED_STATEMENTS, 'off', 'off when asked')
})

t.test('webhook settings default to Standard Webhooks’ schedule, a 15 s timeout and public URLs only', async (t) => {
  const config = loadConfig({})
  t.equal(config.WEBHOOK_DISPATCHER, 'on', 'this instance dispatches')
  t.equal(config.WEBHOOK_ALLOW_PRIVATE, false, 'private addresses refused')
  t.equal(config.WEBHOOK_TIMEOUT_MS, 15_000)
  t.equal(config.WEBHOOK_RETRY_SCHEDULE, '5,300,1800,7200,18000,36000,36000')
  t.equal(config.WEBHOOK_DISABLE_AFTER_MS, 5 * 24 * 60 * 60 * 1000, 'disabled after 5 days of failures')
  t.equal(config.WEBHOOK_RETENTION_DAYS, 30, 'settled deliveries kept 30 days')
  t.equal(loadConfig({ WEBHOOK_RETENTION_DAYS: '0' }).WEBHOOK_RETENTION_DAYS, 0, '0 keeps them forever')
  t.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_PRIVATE, true, '"true" becomes a boolean')
})

t.test('limits default to generous values and can be turned off', async (t) => {
  const config = loadConfig({})
  t.equal(config.BODY_LIMIT_BYTES, 256 * 1024, 'bodies up to 256 KiB')
  t.equal(config.IMPORT_BODY_LIMIT_BYTES, 256 * 1024 * 1024, 'campaign archives up to 256 MiB')
  t.equal(config.RATE_LIMIT_MAX, 1200, '1,200 requests…')
  t.equal(config.RATE_LIMIT_WINDOW_MS, 60_000, '…a minute per key or address')
  t.equal(config.UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS, 1000, 'shed load past 1 s of event-loop delay')
  t.equal(config.DATABASE_CONNECT_TIMEOUT_MS, 3000, 'wait at most 3 s for a database connection')
  t.equal(config.METRICS_TOKEN, undefined, 'no metrics without a token')
  t.equal(loadConfig({ RATE_LIMIT_MAX: '0' }).RATE_LIMIT_MAX, 0, '0 turns rate limiting off')
})

t.test('a client gets 30 s to send a request and 10 s for its headers; idle connections close', async (t) => {
  const config = loadConfig({})
  t.equal(config.REQUEST_TIMEOUT_MS, 30_000, '30 s for a whole request')
  t.equal(config.HEADERS_TIMEOUT_MS, 10_000, '10 s for its headers')
  t.equal(config.KEEP_ALIVE_TIMEOUT_MS, 72_000, 'a kept-alive connection waits 72 s for the next request')
  t.equal(config.CONNECTION_IDLE_TIMEOUT_MS, 60_000, 'a connection silent both ways for 60 s is closed')
})

t.test('a start-up step may take a minute, or as long as it takes with 0', async (t) => {
  t.equal(loadConfig({}).STARTUP_TIMEOUT_MS, 60_000, 'a minute by default')
  t.equal(loadConfig({ STARTUP_TIMEOUT_MS: '0' }).STARTUP_TIMEOUT_MS, 0, '0 turns the limit off')
})

t.test('a header timeout longer than the request timeout is refused', async (t) => {
  t.throws(
    () => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }),
    { name: 'ConfigError', message: /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/ },
    'the message names both variables',
  )
  t.throws(
    () => loadConfig({ REQUEST_TIMEOUT_MS: '5000' }),
    { name: 'ConfigError' },
    'nor may REQUEST_TIMEOUT_MS drop below the default header timeout',
  )
})

t.test('load shedding by heap defaults to a share of the V8 heap limit, below it', async (t) => {
  const limit = getHeapStatistics().heap_size_limit
  const threshold = loadConfig({}).UNDER_PRESSURE_MAX_HEAP_USED_BYTES
  t.equal(threshold, Math.floor(limit * HEAP_SHED_FRACTION), `${HEAP_SHED_FRACTION} of this process’s heap limit`)
  t.ok(threshold < limit, 'so it sheds before the heap runs out')
  t.equal(
    loadConfig({ UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '123456789' }).UNDER_PRESSURE_MAX_HEAP_USED_BYTES,
    123456789,
    'a value set in the environment wins',
  )
  t.equal(
    loadConfig({ UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '0' }).UNDER_PRESSURE_MAX_HEAP_USED_BYTES,
    0,
    '0 turns it off',
  )
  t.equal(defaultMaxHeapUsedBytes(200 * 2 ** 20), Math.floor(200 * 2 ** 20 * HEAP_SHED_FRACTION), 'any limit')
})

t.test('the default heap threshold follows --max-old-space-size, as the Docker image sets it', async (t) => {
  const script = `import { loadConfig } from './src/config.ts'
import { getHeapStatistics } from 'node:v8'
console.log(JSON.stringify({ limit: getHeapStatistics().heap_size_limit, threshold: loadConfig({}).UNDER_PRESSURE_MAX_HEAP_USED_BYTES }))`
  const output = execFileSync(
    process.execPath,
    ['--max-old-space-size=96', '--max-semi-space-size=8', '--import=tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  )
  const { limit, threshold } = JSON.parse(output) as { limit: number; threshold: number }
  t.ok(limit < 150 * 2 ** 20, `the flags bound the heap (${Math.round(limit / 2 ** 20)} MiB)`)
  t.equal(threshold, Math.floor(limit * HEAP_SHED_FRACTION), 'the threshold is the same share of that limit')
  t.ok(threshold < 96 * 2 ** 20, 'below the old space the process may use at most')
})

t.test('the Docker image and the compose file run node with the same bounded heap', async (t) => {
  const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  const image = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(read('Dockerfile'))?.[1]
  const compose = /^\s+NODE_OPTIONS: '([^']*)'$/m.exec(read('docker-compose.yml'))?.[1]
  t.match(image, /--max-old-space-size=\d+/, 'the image caps the old generation')
  t.match(image, /--max-semi-space-size=\d+/, 'and the young one')
  t.equal(compose, image, 'the compose file sets the same flags')
})

t.test('npm start, npm run worker and the image run node with the same flags', async (t) => {
  const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
  const dockerfile = read('Dockerfile')
  const flagsOf = (command: string) => command.split(' ').filter((word) => word.startsWith('--'))
  const image = [
    ...flagsOf(/^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1] ?? ''),
    ...(JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[]).filter((word) =>
      word.startsWith('--'),
    ),
  ]
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> }
  t.ok(image.length > 0, `the image's flags: ${image.join(' ')}`)
  t.same(flagsOf(scripts.start!), image, 'npm start')
  t.same(flagsOf(scripts.worker!), image, 'npm run worker')
})

t.test('TRUST_PROXY reads as Fastify expects it', async (t) => {
  t.equal(trustProxy('false'), false, 'false: the socket address is the client')
  t.equal(trustProxy('true'), true, 'true: trust every hop')
  const hops = trustProxy('2') as (address: string, hop: number) => boolean
  t.same(
    [hops('10.0.0.1', 0), hops('10.0.0.1', 1), hops('10.0.0.1', 2)],
    [true, true, false],
    'a number: that many hops',
  )
  t.same(trustProxy('10.0.0.0/8, 192.168.1.1'), ['10.0.0.0/8', '192.168.1.1'], 'addresses and CIDRs')
})

t.test('CORS_ORIGINS allows any origin by default, or the listed origins', async (t) => {
  t.equal(corsOrigins(loadConfig({}).CORS_ORIGINS), '*', 'any origin: keys are never cookies')
  t.same(
    corsOrigins(loadConfig({ CORS_ORIGINS: 'http://localhost:30000, https://vtt.example.com' }).CORS_ORIGINS),
    ['http://localhost:30000', 'https://vtt.example.com'],
    'a comma-separated list of origins',
  )
})

t.test('an empty variable counts as unset', async (t) => {
  t.equal(loadConfig({ DATABASE_URL: '' }).DATABASE_URL, undefined)
})

for (const [variable, value] of [
  ['PORT', 'eighty'],
  ['PORT', '70000'],
  ['LOG_LEVEL', 'loud'],
  ['DATABASE_URL', 'mysql://x@y/z'],
  ['ADMIN_TOKEN', 'short'],
  ['DATABASE_POOL_SIZE', '0'],
  ['WEBHOOK_DISPATCHER', 'maybe'],
  ['DATABASE_PREPARED_STATEMENTS', 'sometimes'],
  ['WEBHOOK_ALLOW_PRIVATE', 'yes please'],
  ['WEBHOOK_TIMEOUT_MS', '10'],
  ['WEBHOOK_RETRY_SCHEDULE', '5s,5m'],
  ['WEBHOOK_POLL_INTERVAL_MS', '0'],
  ['WEBHOOK_RETENTION_DAYS', '-1'],
  ['BODY_LIMIT_BYTES', '10'],
  ['IMPORT_BODY_LIMIT_BYTES', '100'],
  ['IMPORT_BODY_LIMIT_BYTES', 'a lot'],
  ['RATE_LIMIT_MAX', '-1'],
  ['RATE_LIMIT_WINDOW_MS', '5'],
  ['TRUST_PROXY', 'everyone'],
  ['UNDER_PRESSURE_MAX_HEAP_USED_BYTES', 'lots'],
  ['DATABASE_CONNECT_TIMEOUT_MS', '0'],
  ['METRICS_TOKEN', 'short'],
  ['REQUEST_TIMEOUT_MS', 'soon'],
  ['HEADERS_TIMEOUT_MS', '0'],
  ['KEEP_ALIVE_TIMEOUT_MS', '-5'],
  ['CONNECTION_IDLE_TIMEOUT_MS', '5000'],
  ['STARTUP_TIMEOUT_MS', '-1'],
  ['CORS_ORIGINS', 'localhost:30000'],
  ['CORS_ORIGINS', 'https://vtt.example.com/game'],
] as const) {
  t.test(`a bad ${variable} (${value}) is refused with a message naming ${variable}`, async (t) => {
    t.throws(() => loadConfig({ [variable]: value }), ConfigError, 'throws a ConfigError')
    try {
      loadConfig({ [variable]: value })
    } catch (error) {
      t.match((error as Error).message, variable, 'the message names the variable')
    }
  })
}
