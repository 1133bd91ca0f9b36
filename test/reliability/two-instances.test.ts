import t from 'tap'
import { testConfig } from '../helpers/config.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'
import {
  allEvents,
  checkHistory,
  injectClient,
  LONG,
  pool,
  rollPath,
  scale,
  setUpTable,
} from '../helpers/reliability.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import { FAST_WEBHOOKS, startLoggingInstance } from '../helpers/webhooks.js'

const CHARACTERS = scale(3, 8)
const ROLLS = scale(240, 2_400)
const CONCURRENCY = scale(16, 32)

t.test(
  `two instances on one PostgreSQL: ${ROLLS} concurrent rolls on ${CHARACTERS} shared characters lose nothing${LONG ? ' (long form)' : ''}`,
  {
    skip: TEST_DATABASE_URL
      ? false
      : 'needs PostgreSQL: set TEST_DATABASE_URL (PGlite is one process with one connection, so it cannot serve two instances)',
  },
  async (t) => {
    const url = await freshDatabaseUrl(t)
    const config = testConfig({
      DATABASE_URL: url!,
      ...FAST_WEBHOOKS,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      LOG_LEVEL: 'debug',
    })

    const startInstance = async () => {
      const { app, sent } = await startLoggingInstance(t, config)
      return { app, client: injectClient(app), sent }
    }
    const one = await startInstance()
    const two = await startInstance()

    const inFlight = new Set<string>()
    const overlaps: string[] = []
    const receiver = await startReceiver(t, {
      answer: () => ({ status: 200, delayMs: 2 }),
      onRequest: (request) => {
        if (inFlight.has(request.id)) overlaps.push(request.id)
        inFlight.add(request.id)
      },
      onAnswered: (request) => inFlight.delete(request.id),
    })

    const table = await setUpTable(one.client, CHARACTERS)
    const hook = await one.client.request('POST', `/v1/campaigns/${table.campaignId}/webhooks`, table.gmKey, {
      url: receiver.url,
    })
    t.equal(hook.status, 201, 'a webhook endpoint receives every event')

    const acknowledged = new Set<string>()
    const refused = new Map<string, number>()
    const started = Date.now()
    // Alternate instances, so the same characters are rolled through both at once.
    await pool(ROLLS, CONCURRENCY, async (n) => {
      const { path, body } = rollPath(table, n)
      const res = await (n % 2 === 0 ? one : two).client.request('POST', path, table.gmKey, body)
      if (res.status === 201) acknowledged.add(res.json().event.id)
      else refused.set(`${res.status} ${res.json().code}`, (refused.get(`${res.status} ${res.json().code}`) ?? 0) + 1)
    })
    const seconds = (Date.now() - started) / 1000
    t.same(Object.fromEntries(refused), {}, 'no roll was refused')
    t.equal(acknowledged.size, ROLLS, `all ${ROLLS} rolls acknowledged in ${seconds.toFixed(1)} s`)

    const events = await checkHistory(t, one.client, table, acknowledged)
    const viaTwo = await allEvents(two.client, table)
    t.same(
      viaTwo.map((event) => event.id),
      events.map((event) => event.id),
      'both instances read the same history',
    )

    // The characters were created before the endpoint: every roll is delivered.
    const total = events.filter((event) => event.type === 'reaction-roll').length
    await receiver.waitFor(`${total} webhooks`, () => receiver.eventIds().size >= total, 60_000)
    t.same(overlaps, [], 'no delivery was ever being sent by both instances at once')
    t.same(receiver.eventIds(), acknowledged, `every one of the ${total} rolls was delivered`)
    t.equal(receiver.received.length, total, 'each exactly once')
    const seqs = receiver.received.map((request) => request.payload.data.seq!)
    t.same(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'in event order, although two dispatchers served the endpoint',
    )
    await eventually(
      'both instances to log their deliveries',
      async () => one.sent.length + two.sent.length,
      (count) => count >= total,
      10_000,
    )
    t.ok(
      one.sent.length > 0 && two.sent.length > 0,
      `both instances shared the deliveries (${one.sent.length} and ${two.sent.length})`,
    )
    t.equal(new Set([...one.sent, ...two.sent]).size, one.sent.length + two.sent.length, 'no delivery was sent by both')
  },
)
