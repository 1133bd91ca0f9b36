import t, { type Test } from 'tap'
import { createCampaign, createCharacter, type Auth } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, decide, provided, revert, type Ids } from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign. Webhooks may point at this machine.
const app = await buildTestApp(t, { WEBHOOK_ALLOW_PRIVATE: 'true' })

interface Answer {
  statusCode: number
  headers: Record<string, unknown>
  body: string
  json(): unknown
}

/** The answer is 201 with a `Location`; returns it. */
function locationOf(t: Test, res: Answer, what: string): string {
  const problem = res.statusCode === 201 ? '' : ` (got ${res.statusCode}: ${res.body.slice(0, 300)})`
  t.equal(res.statusCode, 201, `${what}: 201 Created${problem}`)
  const location = res.headers.location
  t.type(location, 'string', `${what}: the answer carries a Location`)
  return String(location)
}

/** The Location leads to what was created: reading it answers the same resource. */
async function leadsTo(t: Test, location: string, auth: Auth, id: string, what: string) {
  const res = await app.inject({ url: location, headers: auth })
  t.equal(res.statusCode, 200, `${what}: GET Location answers 200`)
  t.equal(res.json<{ id: string }>().id, id, `${what}: GET Location answers the ${what} created`)
}

async function stored(ruleset = 'shock-meters'): Promise<{ auth: Auth; ids: Ids }> {
  const { campaign, auth } = await createCampaign(app, ruleset)
  const { character } = await createCharacter(app, campaign, auth)
  return { auth, ids: { campaignId: campaign.id, characterId: character.id } }
}

t.test('POST /v1/campaigns answers 201 with the campaign’s URL as Location', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'Delta Green', ruleset: 'shock-meters' },
  })
  const location = locationOf(t, res, 'the campaign')
  const { campaign, gmKey } = res.json<{ campaign: { id: string }; gmKey: { key: string } }>()
  t.equal(location, `/v1/campaigns/${campaign.id}`, 'Location is the campaign’s URL')
  await leadsTo(t, location, { authorization: `Bearer ${gmKey.key}` }, campaign.id, 'campaign')
})

t.test('POST …/keys answers 201 with the key’s URL, where it is revoked, as Location', async (t) => {
  const { auth, ids } = await stored()
  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${ids.campaignId}/keys`,
    headers: auth,
    payload: { label: 'Sam', characterIds: [ids.characterId] },
  })
  const location = locationOf(t, res, 'the key')
  const key = res.json<{ id: string }>()
  t.equal(location, `/v1/campaigns/${ids.campaignId}/keys/${key.id}`, 'Location is the key’s URL')
  const revoked = await app.inject({ method: 'DELETE', url: location, headers: auth })
  t.equal(revoked.statusCode, 200, 'DELETE Location revokes the key')
  t.ok(revoked.json<{ revokedAt: string | null }>().revokedAt, 'the key created is the one revoked')
})

t.test('POST …/characters answers 201 with the character’s URL as Location, and again on a replay', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const create = () =>
    app.inject({
      method: 'POST',
      url: `/v1/campaigns/${campaign.id}/characters`,
      headers: { ...auth, 'idempotency-key': 'vera' },
      payload: { name: 'Vera Okafor' },
    })
  const first = await create()
  const location = locationOf(t, first, 'the character')
  const { character } = first.json<{ character: { id: string } }>()
  t.equal(location, `/v1/campaigns/${campaign.id}/characters/${character.id}`, 'Location is the character’s URL')
  await leadsTo(t, location, auth, character.id, 'character')
  const replay = await create()
  t.equal(replay.headers['idempotent-replayed'], 'true', 'the retry is the first answer replayed')
  t.equal(locationOf(t, replay, 'the replay'), location, 'the replay gives the same Location')
})

t.test('an action answers 201 with its event’s URL as Location, and again on a replay', async (t) => {
  const { auth, ids } = await stored('reaction-rolls')
  const roll = () =>
    act(app, auth, ids, 'reaction-roll', { request: { ability: 'agility', pressure: 6 } }, { 'idempotency-key': 'r1' })
  const first = await roll()
  const location = locationOf(t, first, 'the reaction roll')
  const { event } = created(first, 'the reaction roll')
  t.equal(location, `/v1/campaigns/${ids.campaignId}/events/${event.id}`, 'Location is the event’s URL')
  await leadsTo(t, location, auth, event.id, 'event')
  const replay = await roll()
  t.equal(replay.headers['idempotent-replayed'], 'true', 'the retry is the first answer replayed')
  t.equal(locationOf(t, replay, 'the replay'), location, 'the replay gives the same Location')
})

t.test('a decision and a revert each answer 201 with their own event’s URL as Location', async (t) => {
  const { auth, ids } = await stored()
  // Violence 5 against Fitness 60: 99 is a matched failure, and no response was chosen.
  const roll = created(
    await act(app, auth, ids, 'stress-check', { request: { meter: 'violence', rank: 5 }, dice: provided(99) }),
    'the stress check',
  )
  const settled = await decide(app, auth, ids.campaignId, roll.event.id, { request: { response: 'panic' } })
  const settlement = locationOf(t, settled, 'the decision')
  const settlementId = created(settled, 'the decision').event.id
  t.equal(settlement, `/v1/campaigns/${ids.campaignId}/events/${settlementId}`, 'Location is the settlement’s URL')
  await leadsTo(t, settlement, auth, settlementId, 'event')

  const reverted = await revert(app, auth, ids, settlementId)
  const location = locationOf(t, reverted, 'the revert')
  const revertId = created(reverted, 'the revert').event.id
  t.equal(location, `/v1/campaigns/${ids.campaignId}/events/${revertId}`, 'Location is the revert event’s URL')
})

t.test('POST …/webhooks answers 201 with the endpoint’s URL as Location', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/webhooks`,
    headers: auth,
    payload: { url: 'http://127.0.0.1:9/nerve' },
  })
  const location = locationOf(t, res, 'the endpoint')
  const endpoint = res.json<{ id: string }>()
  t.equal(location, `/v1/campaigns/${campaign.id}/webhooks/${endpoint.id}`, 'Location is the endpoint’s URL')
  await leadsTo(t, location, auth, endpoint.id, 'endpoint')
})

t.test('the OpenAPI document gives every 201 a Location header', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json<{
    paths: Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>
  }>()
  const created201 = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) =>
      operation.responses?.['201']
        ? [{ name: `${method.toUpperCase()} ${path}`, response: operation.responses['201'] }]
        : [],
    ),
  )
  t.ok(created201.length >= 10, `every kind of 201 is there (${created201.length})`)
  for (const { name, response } of created201) t.ok(response.headers?.Location, `${name} documents Location`)
})

t.test('Locations are paths, as the routes in bodies are; a stream ticket’s is its absolute url', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const rolled = await act(app, auth, { campaignId: campaign.id, characterId: character.id }, 'stress-check', {
    request: { meter: 'violence', rank: 2 },
  })
  const event = created(rolled, 'a stress check').event
  t.match(locationOf(t, rolled, 'a roll'), /^\/v1\/campaigns\//, 'a command’s Location is a path')
  for (const pending of event.pending) t.match(pending.route, /^\/v1\/campaigns\//, 'as a decision’s route is')

  const ticket = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/events/stream-tickets`,
    headers: { ...auth, host: 'nerve.example:8080' },
  })
  const location = locationOf(t, ticket, 'a stream ticket')
  t.equal(location, ticket.json<{ url: string }>().url, 'the ticket’s Location is its url')
  t.match(location, /^http:\/\/nerve\.example:8080\/v1\/campaigns\/.+\/events\/stream\?ticket=/, 'absolute')
})
