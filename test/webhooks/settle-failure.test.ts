import t from 'tap'
import { buildTestApp } from '../helpers/build-app.js'
import { startReceiver } from '../helpers/webhook-receiver.js'
import { campaignWithCharacter, createWebhook, FAST_WEBHOOKS, newSession, webhooksUrl } from '../helpers/webhooks.js'

// A lease outlives 2 × the timeout + 5 s: a short timeout lets the test see a lost settlement sent again.
const app = await buildTestApp(t, { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '500' })

t.test(
  'a settlement that fails while the run goes on stops nothing: the dispatcher carries on and the delivery goes out again with its webhook-id',
  async (t) => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    t.teardown(() => process.off('unhandledRejection', onUnhandled))

    // The first answer is slow, so the next events queue up and go out as one run; every answer
    // takes a while, so a success's settlement fails while the next delivery is on its way.
    const receiver = await startReceiver(t, {
      answer: (_request, index) => ({ status: 200, delayMs: index === 0 ? 600 : 100 }),
    })
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const webhook = await createWebhook(app, campaign.id, auth, { url: receiver.url, eventTypes: ['new-session'] })
    const webhookUrl = `${webhooksUrl(campaign.id)}/${webhook.id}`

    const webhooks = app.store.webhooks
    const settle = webhooks.settleDelivered.bind(webhooks)
    let settlements = 0
    webhooks.settleDelivered = async (successes) => {
      // The first settlement of the run (the second in all) is lost with its connection.
      if (++settlements === 2) throw new Error('connection terminated unexpectedly (injected)')
      return settle(successes)
    }
    t.teardown(() => {
      webhooks.settleDelivered = settle
    })

    const events = [(await newSession(app, auth, ids)).event.id]
    await receiver.waitFor('the first delivery on its way', (received) => received.length === 1)
    for (let i = 0; i < 3; i++) events.push((await newSession(app, auth, ids)).event.id)

    await receiver.waitFor('the four events, the unsettled one twice', (received) => {
      const ofRun = received.filter((request) => events.includes(String(request.payload.data.id)))
      return new Set(ofRun.map((request) => request.payload.data.id)).size === 4 && ofRun.length >= 5
    })
    const statuses = async () =>
      (await app.inject({ url: `${webhookUrl}/deliveries?limit=100`, headers: auth }))
        .json<{ data: { eventId: string; status: string }[] }>()
        .data.filter((delivery) => events.includes(delivery.eventId))
    const deadline = Date.now() + 30_000
    let settled = await statuses()
    while (settled.some((delivery) => delivery.status !== 'delivered') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      settled = await statuses()
    }
    t.same(
      settled.map((delivery) => delivery.status),
      ['delivered', 'delivered', 'delivered', 'delivered'],
      'every delivery of the run ends delivered',
    )
    const webhookIds = new Map<string, Set<string>>()
    for (const request of receiver.received) {
      const eventId = String(request.payload.data.id)
      if (events.includes(eventId)) webhookIds.set(eventId, (webhookIds.get(eventId) ?? new Set()).add(request.id))
    }
    t.ok(
      [...webhookIds.values()].every((idsOfEvent) => idsOfEvent.size === 1),
      'a repeat carries the same webhook-id',
    )
    t.same(unhandled, [], 'no unhandled rejection: the failed settlement was the run’s to report')
  },
)
