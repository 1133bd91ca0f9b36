import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { buildTestApp } from '../helpers/build-app.js'
import { mintPlayerKey, type Auth } from '../helpers/api.js'
import { startReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js'
import {
  campaignWithCharacter,
  createWebhook,
  FAST_WEBHOOKS,
  hiddenStressCheck,
  newSession,
} from '../helpers/webhooks.js'

const app = await buildTestApp(t, FAST_WEBHOOKS)

const SECRET = 'FAN-OUT-SECRET-91c2'

t.test(
  "a campaign's fan-out: every endpoint gets the event as its audience sees it, signed for itself, and the event is read once",
  async (t) => {
    const receiver = await startReceiver(t)
    const { campaign, auth, ids } = await campaignWithCharacter(app)
    const endpoints = await Promise.all(
      ['gm1', 'gm2', 'gm3', 'players1', 'players2', 'players3'].map(async (name) => ({
        name,
        webhook: await createWebhook(app, campaign.id, auth, {
          url: `${receiver.url}/${name}`,
          includeGmEvents: name.startsWith('gm'),
          eventTypes: ['stress-check', 'new-session'],
        }),
      })),
    )
    // The read the dispatcher makes of events, counted: the real one, called through.
    const webhooks = app.store.webhooks
    const read = webhooks.eventsToSend.bind(webhooks)
    const eventsRead: string[] = []
    webhooks.eventsToSend = (eventIds) => {
      eventsRead.push(...eventIds)
      return read(eventIds)
    }
    t.teardown(() => {
      webhooks.eventsToSend = read
    })

    const hidden = await hiddenStressCheck(app, auth, ids, SECRET)
    const shown = await newSession(app, auth, ids)
    await receiver.waitFor('both events at the GM endpoints and the public one at the others', (received) => {
      const at = (name: string) => received.filter((request) => request.path.endsWith(`/${name}`)).length
      return (
        ['gm1', 'gm2', 'gm3'].every((name) => at(name) === 2) &&
        ['players1', 'players2', 'players3'].every((name) => at(name) >= 1)
      )
    })

    const of = (name: string, eventId: string): ReceivedWebhook | undefined =>
      receiver.received.find((request) => request.path.endsWith(`/${name}`) && request.payload.data.id === eventId)
    const player = (await mintPlayerKey(app, campaign, auth, [ids.characterId])).auth
    const viewOf = async (as: Auth) =>
      (await app.inject({ url: `/v1/campaigns/${campaign.id}/events/${shown.event.id}`, headers: as })).json()
    const views = { gm: await viewOf(auth), players: await viewOf(player) }
    for (const { name, webhook } of endpoints) {
      const request = of(name, shown.event.id)!
      t.same(
        new Webhook(webhook.secret).verify(request.body, {
          'webhook-id': request.id,
          'webhook-timestamp': request.timestamp,
          'webhook-signature': request.signature,
        }),
        request.payload,
        `${name}: signed with its own secret`,
      )
      const audience = name.startsWith('gm') ? 'gm' : 'players'
      t.same(request.payload.data, views[audience], `${name}: the event as the history shows it to the ${audience}`)
    }
    t.equal(
      new Set(endpoints.map(({ name }) => of(name, shown.event.id)!.id)).size,
      endpoints.length,
      'each endpoint has its own webhook-id for the event',
    )
    const hiddenBodies = new Set(['gm1', 'gm2', 'gm3'].map((name) => of(name, hidden.event.id)!.body))
    t.equal(hiddenBodies.size, 1, 'the GM endpoints got the same bytes for the GM-only event')
    t.match([...hiddenBodies][0], SECRET, 'as the GM sees it')
    for (const request of receiver.received.filter((request) => request.path.includes('/players'))) {
      t.notMatch(
        request.body,
        SECRET,
        `${request.path}: nothing of the GM-only roll reaches an endpoint without the opt-in`,
      )
    }
    t.same(
      eventsRead.filter((id) => id === hidden.event.id || id === shown.event.id).sort(),
      [hidden.event.id, shown.event.id].sort(),
      'each event was read from the history once for all six endpoints',
    )
  },
)
