import t, { type Test } from 'tap'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildApp, type App } from '../../src/app.js'
import { testConfig } from '../helpers/config.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'
import { Stream } from '../helpers/event-stream.js'
import { checkHistory, injectClient, pool, rollPath, setUpTable } from '../helpers/reliability.js'
import { startReceiver, unusedPort } from '../helpers/webhook-receiver.js'
import { FAST_WEBHOOKS } from '../helpers/webhooks.js'

const run = promisify(execFile)
const SCRIPT = fileURLToPath(new URL('../../scripts/throwaway-pgbouncer.sh', import.meta.url))

const PGBOUNCER =
  process.env.PGBOUNCER ?? ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path))
const ROLLS = 30
const CONCURRENCY = 8

const skip = !PGBOUNCER
  ? 'needs pgbouncer (apt-get install pgbouncer; .ci/run installs it)'
  : !TEST_DATABASE_URL
    ? 'needs PostgreSQL behind the pooler: set TEST_DATABASE_URL'
    : false

/** A PgBouncer of its own in front of TEST_DATABASE_URL's server; the URL of `database` through it. */
async function pgbouncer(t: Test, mode: 'transaction' | 'session', database: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `nerve-pgbouncer-${mode}-`))
  const port = await unusedPort()
  const env = { ...process.env, ...(PGBOUNCER ? { PGBOUNCER } : {}) }
  t.teardown(() => run(SCRIPT, ['stop', dir]))
  await run(SCRIPT, ['start', dir, String(port), TEST_DATABASE_URL!, mode], { env })
  const url = new URL(database)
  url.port = String(port)
  return url.toString()
}

async function start(t: Test, url: string, preparedStatements: 'on' | 'off'): Promise<App> {
  const app = await buildApp(
    testConfig({
      DATABASE_URL: url,
      DATABASE_PREPARED_STATEMENTS: preparedStatements,
      DATABASE_POOL_SIZE: '4',
      LOG_LEVEL: 'silent',
      ...FAST_WEBHOOKS,
    }),
    { logger: false },
  )
  t.teardown(() => app.close())
  await app.ready()
  return app
}

for (const mode of ['transaction', 'session'] as const) {
  // PgBouncer 1.18 moves a client between server connections at each transaction's end and
  // has no max_prepared_statements (1.21+): named statements must be off in transaction mode.
  const prepared = mode === 'transaction' ? 'off' : 'on'
  t.test(
    `through PgBouncer in ${mode} mode (DATABASE_PREPARED_STATEMENTS=${prepared}): two instances roll, read the history, stream and deliver webhooks, losing nothing`,
    { skip },
    async (t) => {
      const bouncerUrl = await pgbouncer(t, mode, (await freshDatabaseUrl(t))!)
      // Two instances starting together: the migrations are applied once, through the pooler.
      const [one, two] = await Promise.all([start(t, bouncerUrl, prepared), start(t, bouncerUrl, prepared)])
      const address = await one.listen({ port: 0, host: '127.0.0.1' })
      const clients = [injectClient(one), injectClient(two)]

      const receiver = await startReceiver(t)
      const table = await setUpTable(clients[0]!, 3)
      const hook = await clients[0]!.request('POST', `/v1/campaigns/${table.campaignId}/webhooks`, table.gmKey, {
        url: receiver.url,
      })
      t.equal(hook.status, 201, 'a webhook endpoint is registered through the pooler')

      const controller = new AbortController()
      t.teardown(() => controller.abort())
      const stream = new Stream(
        await fetch(`${address}/v1/campaigns/${table.campaignId}/events/stream`, {
          headers: { authorization: `Bearer ${table.gmKey}` },
          signal: controller.signal,
        }),
        controller,
      )
      await stream.connected()

      const acknowledged = new Set<string>()
      const failures: string[] = []
      await pool(ROLLS, CONCURRENCY, async (n) => {
        const { path, body } = rollPath(table, n)
        const res = await clients[n % 2]!.request('POST', path, table.gmKey, body)
        if (res.status === 201) acknowledged.add(res.json().event.id)
        else failures.push(`${res.status} ${res.body.slice(0, 200)}`)
      })
      t.same(failures, [], `all ${ROLLS} rolls through both instances were acknowledged`)

      const { path, body } = rollPath(table, ROLLS)
      // One after the other: a retry while the first is still in flight is a 409, not the subject here.
      const retried = []
      for (const instance of [one, two]) {
        retried.push(
          await instance.inject({
            method: 'POST',
            url: path,
            headers: { authorization: `Bearer ${table.gmKey}`, 'idempotency-key': `pooler-${mode}` },
            payload: body as object,
          }),
        )
      }
      t.same(
        retried.map((res) => res.statusCode),
        [201, 201],
        'a roll sent again with its Idempotency-Key, to the other instance, is answered again',
      )
      t.equal(retried[0]!.json().event.id, retried[1]!.json().event.id, 'with the same event, recorded once')
      acknowledged.add(retried[0]!.json().event.id)

      const events = await checkHistory(t, clients[1]!, table, acknowledged)
      const rolls = events.filter((event) => event.type === 'reaction-roll').map((event) => event.id)

      const streamed: string[] = []
      while (streamed.length < rolls.length) {
        const message = await stream.next()
        if (message === null) break
        if (message.data.type === 'reaction-roll') streamed.push(message.data.id)
      }
      stream.close()
      t.same(streamed, rolls, `the stream sent all ${rolls.length} rolls, in order`)

      await receiver.waitFor(`${rolls.length} webhooks`, () => receiver.eventIds().size >= rolls.length, 30_000)
      t.same(receiver.eventIds(), new Set(rolls), 'every roll was delivered to the webhook endpoint')
      t.equal(receiver.received.length, rolls.length, 'each once')
    },
  )
}
