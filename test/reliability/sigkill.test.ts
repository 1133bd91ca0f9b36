import t from 'tap'
import { engine, freshDatabaseUrl } from '../helpers/database.js'
import { checkHistory, httpClient, LONG, pool, rollPath, scale, setUpTable } from '../helpers/reliability.js'
import { startServer, untilReady } from '../helpers/server-process.js'
import { startReceiver, unusedPort } from '../helpers/webhook-receiver.js'

const ROLLS = scale(200, 3_000)
const CONCURRENCY = scale(8, 24)

t.test(
  `an instance killed with SIGKILL under load (${ROLLS} rolls, ${CONCURRENCY} at a time, on ${engine}) loses nothing it acknowledged${LONG ? ' (long form)' : ''}`,
  async (t) => {
    // The same database across the restart: a fresh PostgreSQL database, or a PGlite directory.
    const url = await freshDatabaseUrl(t)
    const env = {
      ...(url ? { DATABASE_URL: url } : { DATA_DIR: t.testdir() }),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.2,0.5,1,1,1,1,1',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      // A delivery leased by the killed instance goes out again when its lease (2 × timeout + 5 s) runs out.
      WEBHOOK_TIMEOUT_MS: '1000',
    }
    const receiver = await startReceiver(t, { answer: () => ({ status: 200, delayMs: 5 }) })
    const port = await unusedPort()

    const started = Date.now()
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
    const first = startServer(port, env)
    t.teardown(() => first.child.kill('SIGKILL'))
    await untilReady(first)
    t.comment(`first instance ready at ${elapsed()}`)
    const client = httpClient(first.base)
    const table = await setUpTable(client, 4)
    const hook = await client.request('POST', `/v1/campaigns/${table.campaignId}/webhooks`, table.gmKey, {
      url: receiver.url,
    })
    t.equal(hook.status, 201, 'a webhook endpoint on 127.0.0.1 receives every event')

    const acknowledged = new Set<string>()
    const statuses = new Map<string, number>()
    let unanswered = 0
    let killed = false
    const killAfter = Math.floor(ROLLS / 2)
    await pool(ROLLS, CONCURRENCY, async (n) => {
      if (killed) return
      const { path, body } = rollPath(table, n)
      try {
        const res = await client.request('POST', path, table.gmKey, body)
        statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1)
        if (res.status === 201) acknowledged.add(res.json().event.id)
      } catch {
        // The connection died with the process: the roll may or may not have committed.
        unanswered++
      }
      if (!killed && acknowledged.size >= killAfter) {
        killed = true
        first.child.kill('SIGKILL')
      }
    })
    const [, signal] = await first.exited
    t.equal(signal, 'SIGKILL', `killed with SIGKILL after ${acknowledged.size} acknowledged rolls`)
    t.same(
      [...statuses.keys()],
      ['201'],
      `every answered roll was acknowledged (${JSON.stringify(Object.fromEntries(statuses))})`,
    )
    t.comment(`${unanswered} requests were in flight when the process died, at ${elapsed()}`)

    const second = startServer(port, env)
    t.teardown(() => second.child.kill('SIGKILL'))
    await untilReady(second)
    t.comment(`restarted instance ready at ${elapsed()}`)
    const restarted = httpClient(second.base)
    const events = await checkHistory(t, restarted, table, acknowledged, unanswered)

    // Every roll in the history — acknowledged or committed unanswered — reaches the consumer.
    const rolls = events.filter((event) => event.type === 'reaction-roll').map((event) => event.id)
    await receiver.waitFor(
      `all ${rolls.length} rolls delivered`,
      () => rolls.every((id) => receiver.eventIds().has(id)),
      60_000,
    )
    t.pass(`all ${rolls.length} events were delivered at least once after the restart (at ${elapsed()})`)
    const eventOf = new Map<string, Set<string>>()
    for (const request of receiver.received) {
      eventOf.set(request.id, (eventOf.get(request.id) ?? new Set()).add(String(request.payload.data.id)))
    }
    t.ok(
      [...eventOf.values()].every((ids) => ids.size === 1),
      'each webhook-id always carried the same event, so consumers de-duplicate safely',
    )
    t.comment(`${receiver.received.length - eventOf.size} duplicate deliveries after the kill, as at-least-once allows`)

    second.child.kill('SIGTERM')
    const [code] = await second.exited
    t.equal(code, 0, 'the restarted instance shuts down cleanly')
  },
)
