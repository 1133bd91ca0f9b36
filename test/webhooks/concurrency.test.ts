import t from 'tap'
import { testConfig } from '../helpers/config.js'
import { freshDatabaseUrl, TEST_DATABASE_URL } from '../helpers/database.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import {
  allDeliveries,
  campaignWithCharacter,
  createWebhook,
  FAST_WEBHOOKS,
  newSession,
  startLoggingInstance,
  type CreatedWebhook,
} from '../helpers/webhooks.js'

const ENDPOINTS = 4
const EVENTS = 50

t.test(
  'two dispatchers on one database share the work and never send one delivery twice at once',
  {
    skip: TEST_DATABASE_URL
      ? false
      : 'needs PostgreSQL: set TEST_DATABASE_URL (PGlite is one process with one connection, so it cannot have two dispatchers)',
  },
  async (t) => {
    const url = await freshDatabaseUrl(t)
    const config = testConfig({
      DATABASE_URL: url!,
      ...FAST_WEBHOOKS,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      LOG_LEVEL: 'debug',
    })

    const startInstance = () => startLoggingInstance(t, config)
    const one = await startInstance()
    const two = await startInstance()

    const inFlight = new Set<string>()
    const overlaps: string[] = []
    const receiver = await startReceiver(t, {
      answer: () => ({ status: 200, delayMs: 10 }),
      onRequest: (request) => {
        if (inFlight.has(request.id)) overlaps.push(request.id)
        inFlight.add(request.id)
      },
      onAnswered: (request) => inFlight.delete(request.id),
    })

    const { campaign, auth, ids } = await campaignWithCharacter(one.app)
    const webhooks: CreatedWebhook[] = []
    for (let i = 0; i < ENDPOINTS; i++) {
      webhooks.push(await createWebhook(one.app, campaign.id, auth, { url: `${receiver.url}/${i}` }))
    }
    // Events are recorded on both instances, so each wakes its own dispatcher too.
    for (let i = 0; i < EVENTS; i++) await newSession(i % 2 === 0 ? one.app : two.app, auth, ids)

    const total = ENDPOINTS * EVENTS
    await receiver.waitFor(`${total} webhooks`, (received) => received.length >= total)
    t.same(overlaps, [], 'no delivery was ever being sent by both at once')
    t.equal(new Set(receiver.received.map((request) => request.id)).size, total, 'every delivery arrived')
    t.equal(receiver.received.length, total, 'each exactly once')
    for (let i = 0; i < ENDPOINTS; i++) {
      const seqs = receiver.received
        .filter((request) => request.path === `/hooks/${i}`)
        .map((request) => request.payload.data.seq!)
      t.same(
        seqs,
        [...seqs].sort((a, b) => a - b),
        `endpoint ${i} got its events in order although two dispatchers served it`,
      )
    }
    const deliveries = await eventually(
      'every delivery to be settled',
      async () =>
        (await Promise.all(webhooks.map((webhook) => allDeliveries(one.app, campaign.id, auth, webhook.id)))).flat(),
      (all) => all.every((delivery) => delivery.status === 'delivered'),
    )
    t.equal(deliveries.length, total, `${total} deliveries recorded`)
    t.ok(
      deliveries.every((delivery) => delivery.attempts.length === 1),
      'each with a single attempt',
    )
    t.ok(one.sent.length > 0 && two.sent.length > 0, `both shared the work (${one.sent.length} and ${two.sent.length})`)
    t.equal(new Set([...one.sent, ...two.sent]).size, one.sent.length + two.sent.length, 'no delivery sent by both')
  },
)
