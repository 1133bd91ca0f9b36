import t from 'tap'
import { buildApp } from '../../src/app.js'
import { testConfig } from '../helpers/config.js'
import { freshDatabaseUrl } from '../helpers/database.js'
import { startReceiver } from '../helpers/webhook-receiver.js'
import { allDeliveries, campaignWithCharacter, createWebhook, FAST_WEBHOOKS, newSession } from '../helpers/webhooks.js'

t.test('closing the app finishes and records the attempt in flight, and takes no new delivery', async (t) => {
  const url = await freshDatabaseUrl(t)
  const env = {
    LOG_LEVEL: 'silent',
    ...FAST_WEBHOOKS,
    ...(url ? { DATABASE_URL: url } : { DATA_DIR: t.testdir() }),
  }
  let answered = 0
  const receiver = await startReceiver(t, {
    answer: () => ({ status: 200, delayMs: 700 }),
    onAnswered: () => answered++,
  })

  const app = await buildApp(testConfig(env), { logger: false })
  t.teardown(() => app.close())
  await app.ready()
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  await newSession(app, auth, ids)
  await newSession(app, auth, ids)
  await receiver.waitFor('the first delivery to be in flight', (received) => received.length === 1)
  t.equal(answered, 0, 'the receiver is still answering when the app starts closing')
  await app.close()
  t.equal(answered, 1, 'close waited for the attempt in flight')
  t.equal(receiver.received.length, 1, 'and no new delivery was taken once closing began')

  // Look at the outbox from a fresh instance that does not dispatch.
  const after = await buildApp(testConfig({ ...env, WEBHOOK_DISPATCHER: 'off' }), { logger: false })
  t.teardown(() => after.close())
  await after.ready()
  const deliveries = await allDeliveries(after, campaign.id, auth, webhook.id)
  t.same(
    deliveries.map((delivery) => [delivery.eventSeq, delivery.status, delivery.attempts.length]),
    [
      [3, 'pending', 0],
      [2, 'delivered', 1],
    ],
    'the first delivery’s attempt was recorded as delivered; the second waits, untried',
  )
})
