import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import {
  campaignWithCharacter,
  createWebhook,
  hiddenStressCheck,
  FAST_WEBHOOKS,
  newSession,
  webhooksUrl,
  type DeliveryView,
} from '../helpers/webhooks.js'

// A failed attempt keeps the delivery waiting a whole second: long enough for the test to
// change the endpoint while nothing is in flight.
const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_RETRY_SCHEDULE: '1,1,1' })

const SECRET = 'SECRET-CAUSE-7f3a'

t.test(
  'an endpoint that stops including GM-only events gets none of those already queued, even when redelivered',
  async (t) => {
    // Only the very first request fails: the GM-only stress check, which then waits for its retry.
    const receiver = await startReceiver(t, { answer: (_request, index) => ({ status: index === 0 ? 500 : 200 }) })
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const webhook = await createWebhook(app, campaign.id, auth, {
      url: receiver.url,
      includeGmEvents: true,
      eventTypes: ['stress-check', 'new-session'],
    })
    const webhookUrl = `${webhooksUrl(campaign.id)}/${webhook.id}`
    const deliveryOf = async (eventId: string): Promise<DeliveryView> => {
      const res = await app.inject({ url: `${webhookUrl}/deliveries?limit=100`, headers: auth })
      return res.json<{ data: DeliveryView[] }>().data.find((delivery) => delivery.eventId === eventId)!
    }
    const carriesSecret = () => receiver.received.filter((request) => request.body.includes(SECRET)).length

    const hidden = await hiddenStressCheck(app, auth, ids, SECRET)
    await eventually(
      'the GM-only delivery to fail once',
      () => deliveryOf(hidden.event.id),
      (delivery) => delivery.attemptCount === 1 && delivery.status === 'pending',
    )
    t.equal(carriesSecret(), 1, 'while opted in, the GM-only check was sent (and failed)')

    const patched = await app.inject({
      method: 'PATCH',
      url: webhookUrl,
      headers: auth,
      payload: { includeGmEvents: false },
    })
    t.equal(patched.statusCode, 200, `the GM opts the endpoint out: ${patched.body}`)

    const after = await newSession(app, auth, ids, 'public')
    const skipped = await eventually(
      'the queued GM-only delivery to be settled',
      () => deliveryOf(hidden.event.id),
      (delivery) => delivery.status !== 'pending' && delivery.status !== 'delivering',
    )
    await eventually(
      'the public event after it to be delivered',
      () => deliveryOf(after.event.id),
      (delivery) => delivery.status === 'delivered',
    )
    t.equal(skipped.status, 'skipped', 'the GM-only delivery ends skipped')
    t.match(skipped.skippedReason, /GM-only/, 'and says why')
    t.equal(skipped.attempts.length, 1, 'no attempt was made after the change')
    t.equal(skipped.nextAttemptAt, null, 'nothing more is due')
    t.equal(carriesSecret(), 1, 'the secret cause was not sent again')

    const redelivered = await app.inject({
      method: 'POST',
      url: `${webhookUrl}/deliveries/${skipped.id}/redeliver`,
      headers: auth,
    })
    t.equal(redelivered.statusCode, 202, `redeliver answers: ${redelivered.body}`)
    t.equal(redelivered.json().status, 'skipped', 'redelivering it skips it again instead of queueing it')
    t.match(redelivered.json().skippedReason, /includeGmEvents/, 'with the reason')
    const later = await newSession(app, auth, ids, 'public')
    await eventually(
      'a later public event to be delivered',
      () => deliveryOf(later.event.id),
      (delivery) => delivery.status === 'delivered',
    )
    t.equal(carriesSecret(), 1, 'the redelivery sent nothing')
    t.notOk(
      receiver.received.some(
        (request) => request.payload.data.id === hidden.event.id && request !== receiver.received[0],
      ),
      'no request after the first carried the GM-only event',
    )

    const optedIn = await app.inject({
      method: 'PATCH',
      url: webhookUrl,
      headers: auth,
      payload: { includeGmEvents: true },
    })
    t.equal(optedIn.statusCode, 200, 'the GM opts the endpoint in again')
    const again = await app.inject({
      method: 'POST',
      url: `${webhookUrl}/deliveries/${skipped.id}/redeliver`,
      headers: auth,
    })
    t.equal(again.json().status, 'pending', 'opted in again, a redelivery is queued')
    t.equal(again.json().skippedReason, null, 'and no longer carries a reason to skip')
    await receiver.waitFor('the GM-only check, sent once opted in again', () => carriesSecret() === 2)
    t.equal(
      receiver.received.filter((request) => request.body.includes(SECRET))[1]!.id,
      skipped.id,
      'with the same webhook-id as before',
    )
  },
)
