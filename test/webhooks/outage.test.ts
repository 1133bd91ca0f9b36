import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'
import { eventually, startReceiver, unusedPort, WebhookReceiver } from '../helpers/webhook-receiver.js'
import { allDeliveries, campaignWithCharacter, createWebhook, FAST_WEBHOOKS, newSession } from '../helpers/webhooks.js'

const EVENTS = 200

t.test(`a receiver that is down while ${EVENTS} events are recorded gets all of them once it is back`, async (t) => {
  // Retries keep going for about a minute, longer than the outage lasts.
  const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,2,3,4,4,4,4,4,4,4,4,4,4,4' })
  const port = await unusedPort()
  const receiver = new WebhookReceiver({ port })
  t.teardown(() => receiver.close())
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })

  const eventIds = new Set<string>()
  for (let i = 0; i < EVENTS; i++) eventIds.add((await newSession(app, auth, ids)).event.id)

  const failing = await eventually(
    'attempts to the receiver that is down',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries.length === EVENTS && deliveries.some((delivery) => delivery.attempts.length > 0),
  )
  const attempts = failing.flatMap((delivery) => delivery.attempts)
  t.ok(
    attempts.every((attempt) => attempt.error === 'connection refused'),
    'while the receiver was down every attempt was refused, and recorded',
  )
  t.ok(attempts.length < EVENTS, `the endpoint backed off: ${attempts.length} attempts for ${EVENTS} deliveries`)
  // The list can catch one delivery in the middle of an attempt ('delivering'): still open too.
  t.ok(
    failing.every((delivery) => delivery.status === 'pending' || delivery.status === 'delivering'),
    'every delivery is still queued, none given up or marked delivered',
  )
  t.ok(
    (await app.inject({ url: `/v1/campaigns/${campaign.id}/webhooks/${webhook.id}`, headers: auth })).json()
      .failingSince,
    'the endpoint shows it is failing',
  )

  await receiver.listen()
  await receiver.waitFor(`all ${EVENTS} events`, () => receiver.eventIds().size === EVENTS, 90_000)
  t.same(receiver.eventIds(), eventIds, `every one of the ${EVENTS} events arrived`)
  t.equal(receiver.received.length, EVENTS, 'each exactly once')
  const delivered = await eventually(
    'every delivery to be settled',
    () => allDeliveries(app, campaign.id, auth, webhook.id),
    (deliveries) => deliveries.every((delivery) => delivery.status === 'delivered'),
  )
  t.equal(delivered.length, EVENTS, 'every delivery is delivered')
  t.equal(
    (await app.inject({ url: `/v1/campaigns/${campaign.id}/webhooks/${webhook.id}`, headers: auth })).json()
      .failingSince,
    null,
    'the endpoint is no longer failing',
  )
})

t.test('an endpoint failing for longer than WEBHOOK_DISABLE_AFTER_MS is disabled', async (t) => {
  const app = await buildTestApp(t, {
    ...FAST_WEBHOOKS,
    WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1',
    WEBHOOK_DISABLE_AFTER_MS: '300',
  })
  const receiver = await startReceiver(t, { answer: () => ({ status: 503 }) })
  const { campaign, auth, ids } = await campaignWithCharacter(app)
  const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url })
  await newSession(app, auth, ids)
  const disabled = await eventually(
    'the endpoint to be disabled',
    async () =>
      (await app.inject({ url: `/v1/campaigns/${campaign.id}/webhooks/${webhook.id}`, headers: auth })).json(),
    (endpoint) => endpoint.enabled === false,
  )
  t.match(disabled.disabledReason, 'failing for longer than', 'the reason names the failing window')
  t.ok(disabled.failingSince, 'it shows since when it has been failing')
  const [delivery] = await allDeliveries(app, campaign.id, auth, webhook.id)
  t.equal(delivery!.status, 'pending', 'the delivery waits for the endpoint to be enabled again')
  t.ok(delivery!.attempts.length >= 2, 'after several attempts, all recorded')
})
