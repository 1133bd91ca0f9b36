import t from 'tap'
import { bearer, createCampaign, createCharacter, mintPlayerKey, PROBLEM } from '../helpers/api.js'
import { allEvents, audit } from '../helpers/commands.js'
import { buildTestApp } from '../helpers/build-app.js'

// Every test makes its own campaigns, so one app serves them all.
const app = await buildTestApp(t)

const ADMIN_TOKEN = 'admin-token-for-tests-only'

interface FieldError {
  pointer: string
}
const pointersOf = (body: { errors?: FieldError[] }) => (body.errors ?? []).map((error) => error.pointer)

t.test('POST /v1/campaigns returns 201 with the campaign and a GM key shown once', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'The Mercy Street Irregulars', ruleset: 'shock-meters' },
  })
  t.equal(res.statusCode, 201, 'created')
  const { campaign, gmKey } = res.json()
  t.match(
    campaign,
    { name: 'The Mercy Street Irregulars', ruleset: 'shock-meters', eventCount: 0 },
    'the campaign as sent, with no events yet',
  )
  t.match(gmKey.key, /^nrv_gm_[A-Za-z0-9_-]{40,}$/, 'the GM key is recognisable and long')
  t.equal(gmKey.role, 'gm', 'it is a GM key')
  t.ok(gmKey.key.startsWith(gmKey.prefix), 'the prefix shown is the start of the key')
  t.ok(gmKey.prefix.length < gmKey.key.length / 2, 'the prefix gives away only a little of the key')

  const keys = await app.inject({ url: `/v1/campaigns/${campaign.id}/keys`, headers: bearer(gmKey.key) })
  t.equal(keys.statusCode, 200, 'the GM key works')
  t.same(
    keys.json().data.map((key: { id: string }) => key.id),
    [gmKey.id],
    'the GM key is listed',
  )
  t.notOk(keys.body.includes(gmKey.key), 'the listing never shows the key again')
  t.notOk('key' in keys.json().data[0], 'a listed key has no secret field')

  const again = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: bearer(gmKey.key) })
  t.notOk(again.body.includes(gmKey.key), 'nor does GET of the campaign')
})

t.test('campaign settings take their defaults and invalid settings are 422 naming the field', async (t) => {
  const { campaign } = await createCampaign(app, 'reaction-rolls')
  t.same(campaign.settings, { emotionTopStage: 5, xpTrackLength: 5 }, 'every setting left out takes its default')

  const custom = await createCampaign(app, 'reaction-rolls', { settings: { emotionTopStage: 3 } })
  t.same(custom.campaign.settings, { emotionTopStage: 3, xpTrackLength: 5 }, 'a given setting is kept')

  const res = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'Broken', ruleset: 'reaction-rolls', settings: { emotionTopStage: 0 } },
  })
  t.equal(res.statusCode, 422, 'a top stage of 0 is refused')
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  t.same(pointersOf(res.json()), ['/body/settings/emotionTopStage'], 'the problem names the setting')

  const unknown = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'Broken', ruleset: 'shock-meters', settings: { houseRule: true } },
  })
  t.equal(unknown.statusCode, 422, 'a setting the rule set does not have is refused')
  t.same(pointersOf(unknown.json()), ['/body/settings/houseRule'], 'and named')
})

t.test('POST /v1/campaigns with an unknown rule set is 422 naming /body/ruleset', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'Mystery', ruleset: 'call-of-cthulhu' },
  })
  t.equal(res.statusCode, 422, 'unprocessable')
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  t.ok(pointersOf(res.json()).includes('/body/ruleset'), 'the problem names the rule set field')
})

t.test('with ADMIN_TOKEN set, creating a campaign needs that token', async (t) => {
  const gated = await buildTestApp(t, { ADMIN_TOKEN })
  const body = { name: 'Gated', ruleset: 'trauma-table' }

  const without = await gated.inject({ method: 'POST', url: '/v1/campaigns', payload: body })
  t.equal(without.statusCode, 401, 'no token: 401')
  t.match(without.headers['www-authenticate'], /^Bearer /, 'with a Bearer challenge')
  t.match(without.headers['content-type'], PROBLEM, 'as problem+json')

  const wrong = await gated.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers: bearer('not-the-admin-token-at-all'),
    payload: body,
  })
  t.equal(wrong.statusCode, 401, 'a wrong token: 401')
  t.match(wrong.headers['www-authenticate'], /^Bearer /, 'with a Bearer challenge')

  const { gmKey } = await createCampaign(app, 'trauma-table')
  const gmInstead = await gated.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers: bearer(gmKey.key),
    payload: body,
  })
  t.equal(gmInstead.statusCode, 401, 'a campaign key is not the admin token')

  const right = await gated.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers: bearer(ADMIN_TOKEN),
    payload: body,
  })
  t.equal(right.statusCode, 201, 'the admin token creates the campaign')
  t.match(right.json().gmKey.key, /^nrv_gm_/, 'and a GM key comes with it')
})

t.test('the document says POST /v1/campaigns needs a bearer token only when ADMIN_TOKEN is set', async (t) => {
  const document = (await app.inject({ url: '/docs/json' })).json()
  const operation = document.paths['/v1/campaigns'].post
  t.same(operation.security, [{}, { bearerAuth: [] }], 'security is optional: nothing, or the bearer token')
  t.match(operation.description, /ADMIN_TOKEN/, 'the description names the setting that makes it needed')
  t.ok(operation.responses['401'], 'and the 401 it then answers is documented')

  const open = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    payload: { name: 'Open', ruleset: 'reaction-rolls' },
  })
  t.equal(open.statusCode, 201, 'without ADMIN_TOKEN no credentials are needed')
})

t.test('GET /v1/campaigns/{id} answers the GM key and 401 without a valid key', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const res = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: auth })
  t.equal(res.statusCode, 200, 'the GM reads the campaign')
  t.same(res.json(), campaign, 'the campaign as it was created')

  const anonymous = await app.inject({ url: `/v1/campaigns/${campaign.id}` })
  t.equal(anonymous.statusCode, 401, 'no key: 401')
  t.match(anonymous.headers['www-authenticate'], /^Bearer /, 'with a Bearer challenge')

  const forged = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: bearer('nrv_gm_forged') })
  t.equal(forged.statusCode, 401, 'an unknown key: 401')
  t.match(forged.headers['www-authenticate'], /invalid_token/, 'the challenge says the token is invalid')
})

t.test('PATCH /v1/campaigns/{id} renames the campaign and replaces its settings', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
  const url = `/v1/campaigns/${campaign.id}`

  const renamed = await app.inject({ method: 'PATCH', url, headers: auth, payload: { name: 'Season 2' } })
  t.equal(renamed.statusCode, 200, 'renamed')
  t.equal(renamed.json().name, 'Season 2', 'the new name')
  t.same(renamed.json().settings, campaign.settings, 'settings untouched by a rename')

  const settings = await app.inject({
    method: 'PATCH',
    url,
    headers: auth,
    payload: { settings: { xpTrackLength: 8 } },
  })
  t.equal(settings.statusCode, 200, 'settings changed')
  t.same(settings.json().settings, { emotionTopStage: 5, xpTrackLength: 8 }, 'left-out settings take their default')
  t.equal(settings.json().name, 'Season 2', 'the name stays')

  const bad = await app.inject({ method: 'PATCH', url, headers: auth, payload: { settings: { xpTrackLength: 99 } } })
  t.equal(bad.statusCode, 422, 'an invalid setting is refused')
  t.same(pointersOf(bad.json()), ['/body/settings/xpTrackLength'], 'and named')

  const empty = await app.inject({ method: 'PATCH', url, headers: auth, payload: {} })
  t.equal(empty.statusCode, 422, 'an empty patch is refused')

  const stored = await app.inject({ url, headers: auth })
  t.match(stored.json(), { name: 'Season 2', settings: { xpTrackLength: 8 } }, 'refused patches changed nothing')
})

t.test(
  'PATCH /v1/campaigns/{id} records a campaign.updated event, which every key of the campaign reads',
  async (t) => {
    const { campaign, auth } = await createCampaign(app, 'reaction-rolls', { name: 'Season 1' })
    const url = `/v1/campaigns/${campaign.id}`
    const { character } = await createCharacter(app, campaign, auth)
    const player = (await mintPlayerKey(app, campaign, auth, [character.id])).auth

    const renamed = await app.inject({ method: 'PATCH', url, headers: auth, payload: { name: 'Season 2' } })
    t.equal(renamed.statusCode, 200, 'renamed')
    t.equal(renamed.json().eventCount, 2, 'the rename is the campaign’s second event, after the character’s creation')
    const settings = await app.inject({
      method: 'PATCH',
      url,
      headers: auth,
      payload: { settings: { xpTrackLength: 8 } },
    })
    t.equal(settings.statusCode, 200, 'settings changed')
    const same = await app.inject({ method: 'PATCH', url, headers: auth, payload: { name: 'Season 2' } })
    t.equal(same.statusCode, 200, 'a patch that changes nothing is answered')
    t.equal(same.json().eventCount, 3, 'and records nothing')

    const events = (await allEvents(app, auth, campaign.id)).filter((event) => event.type === 'campaign.updated')
    t.equal(events.length, 2, 'the rename and the change of settings are in the history')
    t.match(
      events[0],
      {
        seq: 2,
        characterId: null,
        characterName: null,
        visibility: 'public',
        actor: { role: 'gm' },
        request: { name: 'Season 2' },
        outcome: {
          before: { name: 'Season 1', settings: { emotionTopStage: 5, xpTrackLength: 5 } },
          after: { name: 'Season 2', settings: { emotionTopStage: 5, xpTrackLength: 5 } },
        },
        summary: 'The GM renamed Season 1 to Season 2',
        dice: [],
        pending: [],
        sheetBefore: null,
        sheetAfter: {},
      },
      'the rename: no character, no sheets, the name and settings before and after',
    )
    t.match(
      events[1],
      { seq: 3, outcome: { after: { name: 'Season 2', settings: { xpTrackLength: 8 } } } },
      'the change of settings',
    )
    t.equal(events[1]!.summary, 'The GM changed the settings of Season 2', 'summed up for a GM')

    const seen = await allEvents(app, player, campaign.id, { type: 'campaign.updated' })
    t.same(seen, events, 'a player key reads them as the GM does: the campaign’s name and settings are no secret')
    const one = await app.inject({ url: `${url}/events/${events[0]!.id}`, headers: player })
    t.equal(one.statusCode, 200, 'and reads one by its id')
    t.same(
      (await allEvents(app, auth, campaign.id, { characterId: character.id })).map((event) => event.type),
      ['character.created'],
      'a character’s history leaves them out',
    )
    t.match(await audit(app, auth, { campaignId: campaign.id, characterId: character.id }), {
      consistent: true,
      eventsReplayed: 1,
    })

    const reveal = await app.inject({ method: 'POST', url: `${url}/events/${events[0]!.id}/reveal`, headers: auth })
    t.equal(reveal.statusCode, 409, 'there is nothing hidden of it to reveal')
    t.match(reveal.headers['content-type'], PROBLEM, 'said as a problem')
  },
)

t.test('a change of settings that a sheet exceeds is 409 and records nothing', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign, auth, {
    name: 'Iris',
    sheet: { emotions: { anger: 4 } },
  })
  const url = `/v1/campaigns/${campaign.id}`
  const res = await app.inject({ method: 'PATCH', url, headers: auth, payload: { settings: { emotionTopStage: 3 } } })
  t.equal(res.statusCode, 409, `refused: ${res.body}`)
  t.same(
    (await allEvents(app, auth, campaign.id)).map((event) => event.type),
    ['character.created'],
    `no campaign.updated was recorded (${character.name} keeps rolling)`,
  )
})

t.test('DELETE /v1/campaigns/{id} closes the campaign: its keys get 401 and its history stays', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const url = `/v1/campaigns/${campaign.id}`

  const res = await app.inject({ method: 'DELETE', url, headers: auth })
  t.equal(res.statusCode, 204, 'closed')
  t.equal(res.body, '', 'no body')

  const read = await app.inject({ url, headers: auth })
  t.equal(read.statusCode, 401, 'the GM key no longer works')
  const again = await app.inject({ method: 'DELETE', url, headers: auth })
  t.equal(again.statusCode, 401, 'not even to close it again')

  const events = await app.db.prisma.rollEvent.findMany({ where: { campaignId: campaign.id } })
  t.equal(events.length, 1, 'the history rows remain')
  t.equal(events[0]?.characterId, character.id, 'the character.created event is still there')
  t.ok(await app.db.prisma.character.findUnique({ where: { id: character.id } }), 'and so is the character it is about')

  const other = await createCampaign(app)
  const foreign = await app.inject({ url, headers: other.auth })
  t.equal(foreign.statusCode, 404, 'another campaign’s key still sees nothing')
})
