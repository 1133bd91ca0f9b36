import t from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, PROBLEM, type EventView } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, allEvents, created, decide, provided, type Ids } from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign.
const app = await buildTestApp(t)

interface Page {
  data: EventView[]
  hasMore: boolean
  nextCursor: number | null
}

const eventsUrl = (campaignId: string, query: Record<string, string | number> = {}) =>
  `/v1/campaigns/${campaignId}/events?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)] as [string, string])).toString()}`

// Two characters, a few rolls each, so there is something to page through and filter.
const campaign = await createCampaign(app, 'reaction-rolls')
const campaignId = campaign.campaign.id
const ada = (await createCharacter(app, campaign.campaign, campaign.auth, { name: 'Ada' })).character
const bo = (await createCharacter(app, campaign.campaign, campaign.auth, { name: 'Bo' })).character
const roll = (characterId: string, face: number) =>
  act(app, campaign.auth, { campaignId, characterId }, 'reaction-roll', {
    request: { ability: 'agility', pressure: 4 },
    dice: provided(face),
  })
for (const face of [1, 6, 2, 5, 6]) {
  created(await roll(ada.id, face), 'Ada’s roll')
  created(await roll(bo.id, face), 'Bo’s roll')
}
const TOTAL = 12

t.test('GET /events lists the history in ascending seq from 1 with no gaps', async (t) => {
  const res = await app.inject({ url: eventsUrl(campaignId), headers: campaign.auth })
  t.equal(res.statusCode, 200, '200 OK')
  const page = res.json<Page>()
  t.same(
    page.data.map((event) => event.seq),
    Array.from({ length: TOTAL }, (_, index) => index + 1),
    'seq runs 1, 2, 3… in order',
  )
  t.equal(page.hasMore, false, 'one page holds everything')
  t.equal(page.nextCursor, null, 'no cursor when nothing follows')
})

t.test('the after cursor pages through the history without gaps or repeats', async (t) => {
  const seen: number[] = []
  let after = 0
  for (let guard = 0; guard < 10; guard++) {
    const res = await app.inject({ url: eventsUrl(campaignId, { after, limit: 5 }), headers: campaign.auth })
    const page = res.json<Page>()
    t.ok(page.data.length <= 5, 'a page holds at most `limit` events')
    seen.push(...page.data.map((event) => event.seq))
    if (!page.hasMore) {
      t.equal(page.nextCursor, null, 'the last page has no cursor')
      break
    }
    t.equal(page.nextCursor, page.data.at(-1)!.seq, 'the cursor is the last seq of the page')
    after = page.nextCursor!
  }
  t.same(
    seen,
    Array.from({ length: TOTAL }, (_, index) => index + 1),
    'every event once, in order',
  )

  const tail = (await app.inject({ url: eventsUrl(campaignId, { after: TOTAL }), headers: campaign.auth })).json()
  t.same(tail, { data: [], hasMore: false, nextCursor: null }, 'after the last seq the page is empty')
})

t.test('limit is at most 100: 100 pages, 101 and 0 are 400', async (t) => {
  const big = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, big.campaign, big.auth)
  const ids = { campaignId: big.campaign.id, characterId: character.id }
  for (let i = 0; i < 104; i++) {
    created(await act(app, big.auth, ids, 'reaction-roll', { request: { pressure: 4, resist: false } }), 'a roll')
  }
  const full = (await app.inject({ url: eventsUrl(big.campaign.id, { limit: 100 }), headers: big.auth })).json<Page>()
  t.equal(full.data.length, 100, 'limit=100 returns 100 events')
  t.equal(full.hasMore, true, 'and says more follow')
  t.equal(full.nextCursor, 100, 'with the cursor to continue from')
  const rest = (
    await app.inject({ url: eventsUrl(big.campaign.id, { limit: 100, after: 100 }), headers: big.auth })
  ).json<Page>()
  t.same(
    rest.data.map((event) => event.seq),
    [101, 102, 103, 104, 105],
    'the next page holds the rest',
  )
  const byDefault = (await app.inject({ url: eventsUrl(big.campaign.id), headers: big.auth })).json<Page>()
  t.equal(byDefault.data.length, 50, 'the default page is 50 events')

  for (const limit of [101, 0, -1]) {
    const res = await app.inject({ url: eventsUrl(big.campaign.id, { limit }), headers: big.auth })
    t.equal(res.statusCode, 400, `limit=${limit} is 400 Bad Request`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem details')
    t.match(res.json().errors?.[0]?.pointer, '/querystring/limit', 'naming the limit')
  }
  const badAfter = await app.inject({ url: eventsUrl(big.campaign.id, { after: 'x' }), headers: big.auth })
  t.equal(badAfter.statusCode, 400, 'a cursor that is not a number is 400')
})

t.test('characterId filters the history to one character', async (t) => {
  const res = await app.inject({ url: eventsUrl(campaignId, { characterId: bo.id }), headers: campaign.auth })
  const events = res.json<Page>().data
  t.equal(events.length, 6, 'Bo’s creation and five rolls')
  t.ok(
    events.every((event) => event.characterId === bo.id),
    'every event is about Bo',
  )
  t.same(
    events.map((event) => event.seq),
    [...events.map((event) => event.seq)].sort((a, b) => a - b),
    'still in ascending seq',
  )
  const unknown = await app.inject({
    url: eventsUrl(campaignId, { characterId: '01930000-0000-7000-8000-000000000000' }),
    headers: campaign.auth,
  })
  t.same(unknown.json<Page>().data, [], 'an unknown character has no events')
  const invalid = await app.inject({ url: eventsUrl(campaignId, { characterId: 'bo' }), headers: campaign.auth })
  t.equal(invalid.statusCode, 400, 'a characterId that is not a UUID is 400')
})

t.test('type filters the history to one kind of event, and combines with the cursor', async (t) => {
  const rolls = await allEvents(app, campaign.auth, campaignId, { type: 'reaction-roll' })
  t.equal(rolls.length, 10, 'ten reaction rolls')
  t.ok(
    rolls.every((event) => event.type === 'reaction-roll'),
    'only reaction rolls',
  )
  const created = await allEvents(app, campaign.auth, campaignId, { type: 'character.created' })
  t.same(
    created.map((event) => event.characterId),
    [ada.id, bo.id],
    'the two creations',
  )
  const page = (
    await app.inject({
      url: eventsUrl(campaignId, { type: 'reaction-roll', characterId: ada.id, limit: 2, after: 3 }),
      headers: campaign.auth,
    })
  ).json<Page>()
  t.ok(
    page.data.every((event) => event.characterId === ada.id && event.type === 'reaction-roll' && event.seq > 3),
    'both filters and the cursor apply together',
  )
  t.equal(page.data.length, 2, 'a full page')
  t.equal(page.hasMore, true, 'more of Ada’s rolls follow')
})

t.test('sheets=none returns the same page without sheetBefore and sheetAfter', async (t) => {
  const query = { characterId: ada.id, limit: 4, after: 2 }
  const fullRes = await app.inject({ url: eventsUrl(campaignId, query), headers: campaign.auth })
  const bareRes = await app.inject({ url: eventsUrl(campaignId, { ...query, sheets: 'none' }), headers: campaign.auth })
  t.equal(bareRes.statusCode, 200, '200 OK')
  t.match(bareRes.headers['content-type'], /^application\/json/, 'JSON, as without the option')
  const full = fullRes.json<Page>()
  const bare = bareRes.json<Page>()
  t.equal(full.data.length, 4, 'a full page to compare')
  t.ok(
    full.data.every((event) => 'sheetBefore' in event && 'sheetAfter' in event),
    'by default every event carries both sheets',
  )
  t.ok(
    bare.data.every((event) => !('sheetBefore' in event) && !('sheetAfter' in event)),
    'with sheets=none no event carries either sheet',
  )
  t.same(
    bare.data,
    full.data.map(({ sheetBefore: _before, sheetAfter: _after, ...rest }) => rest),
    'every other field is the same, event for event',
  )
  t.same(
    { hasMore: bare.hasMore, nextCursor: bare.nextCursor },
    { hasMore: full.hasMore, nextCursor: full.nextCursor },
    'the same cursor',
  )
  t.ok(bareRes.body.length < fullRes.body.length / 2, 'the page is much smaller')

  const explicit = await app.inject({
    url: eventsUrl(campaignId, { ...query, sheets: 'full' }),
    headers: campaign.auth,
  })
  t.equal(explicit.body, fullRes.body, 'sheets=full is the default, byte for byte')
})

t.test('a type this rule set never records is 422 naming the type most likely meant, not an empty page', async (t) => {
  const misspelt = await app.inject({ url: eventsUrl(campaignId, { type: 'reaction-rol' }), headers: campaign.auth })
  t.equal(misspelt.statusCode, 422, 'a slip is refused')
  t.match(misspelt.headers['content-type'], PROBLEM, 'as problem details')
  t.match(
    misspelt.json().errors,
    [
      {
        pointer: '/querystring/type',
        detail: /^reaction-rol is not an event type of a reaction-rolls campaign; did you mean reaction-roll\?/,
      },
    ],
    'naming the parameter and the type meant',
  )
  const otherRuleSet = await app.inject({
    url: eventsUrl(campaignId, { type: 'stress-check' }),
    headers: campaign.auth,
  })
  t.equal(otherRuleSet.statusCode, 422, 'another rule set’s action is refused too')
  t.notMatch(otherRuleSet.json().detail, /did you mean/, 'with no suggestion when nothing is close')
  const builtIn = await app.inject({ url: eventsUrl(campaignId, { type: 'reveal' }), headers: campaign.auth })
  t.equal(builtIn.statusCode, 200, 'a built-in type no event has yet is an empty page, not an error')
  t.same(builtIn.json<Page>().data, [], 'none recorded')
})

t.test('an unknown sheets value is 400 problem details naming the field', async (t) => {
  for (const sheets of ['patch', 'NONE', '']) {
    const res = await app.inject({ url: eventsUrl(campaignId, { sheets }), headers: campaign.auth })
    t.equal(res.statusCode, 400, `sheets=${sheets} is 400 Bad Request`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem details')
    t.match(
      res.json().errors,
      [{ pointer: '/querystring/sheets', detail: 'must be one of full, none' }],
      'naming the field and its values',
    )
  }
})

t.test('GET /events/{eventId} returns one event; an unknown one is 404', async (t) => {
  const [first] = await allEvents(app, campaign.auth, campaignId)
  const res = await app.inject({ url: `/v1/campaigns/${campaignId}/events/${first!.id}`, headers: campaign.auth })
  t.equal(res.statusCode, 200, '200 OK')
  t.same(res.json(), first, 'the same event as in the list')
  const missing = await app.inject({
    url: `/v1/campaigns/${campaignId}/events/01930000-0000-7000-8000-000000000000`,
    headers: campaign.auth,
  })
  t.equal(missing.statusCode, 404, 'an unknown event is 404')
  t.match(missing.headers['content-type'], PROBLEM, 'as problem details')
})

t.test('a GM-only roll is hidden from player keys and visible to the GM', async (t) => {
  const own = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, own.campaign, own.auth)
  const ids: Ids = { campaignId: own.campaign.id, characterId: character.id }
  const player = await mintPlayerKey(app, own.campaign, own.auth, [character.id])

  const secret = created(
    await act(app, own.auth, ids, 'reaction-roll', {
      request: { ability: 'agility', pressure: 4 },
      dice: provided(6),
      visibility: 'gm',
    }),
    'the GM-only roll',
  )
  t.equal(secret.event.visibility, 'gm', 'the event is GM-only')
  const open = created(
    await act(app, player.auth, ids, 'reaction-roll', { request: { pressure: 4, resist: false } }),
    'the player’s roll',
  )
  t.equal(open.event.visibility, 'public', 'a roll is public by default')

  const gmView = await allEvents(app, own.auth, ids.campaignId)
  const playerView = await allEvents(app, player.auth, ids.campaignId)
  t.ok(
    gmView.some((event) => event.id === secret.event.id),
    'the GM sees the GM-only roll',
  )
  t.notOk(
    playerView.some((event) => event.id === secret.event.id),
    'the player does not see it in the list',
  )
  t.ok(
    playerView.every((event) => event.visibility === 'public'),
    'the player sees public events only',
  )
  t.ok(
    playerView.some((event) => event.id === open.event.id),
    'the player sees the public roll',
  )
  const filtered = await allEvents(app, player.auth, ids.campaignId, { type: 'reaction-roll' })
  t.notOk(
    filtered.some((event) => event.visibility === 'gm'),
    'a type filter does not reveal it either',
  )
  const bare = await allEvents(app, player.auth, ids.campaignId, { sheets: 'none' })
  t.same(
    bare.map((event) => event.id),
    playerView.map((event) => event.id),
    'sheets=none shows a player the same public events, and no GM-only one',
  )
  const gmBare = await allEvents(app, own.auth, ids.campaignId, { sheets: 'none' })
  t.ok(
    gmBare.some((event) => event.id === secret.event.id),
    'while the GM still sees the GM-only roll with sheets=none',
  )

  const direct = await app.inject({
    url: `/v1/campaigns/${ids.campaignId}/events/${secret.event.id}`,
    headers: player.auth,
  })
  t.equal(direct.statusCode, 404, 'GET of the GM-only event by a player key is 404')
  const gmDirect = await app.inject({
    url: `/v1/campaigns/${ids.campaignId}/events/${secret.event.id}`,
    headers: own.auth,
  })
  t.equal(gmDirect.statusCode, 200, 'the GM gets it')
  const pending = created(
    await act(app, own.auth, ids, 'reaction-roll', {
      request: { ability: 'agility', pressure: 6 },
      dice: provided(4),
      visibility: 'gm',
    }),
    'a GM-only retrievable roll',
  )
  const settle = await decide(app, player.auth, ids.campaignId, pending.event.id, {
    request: { decision: 'decline' },
  })
  t.equal(settle.statusCode, 404, 'a player cannot settle (or learn of) a GM-only event: 404')

  const gmOnlyByPlayer = await act(app, player.auth, ids, 'reaction-roll', {
    request: { pressure: 4, resist: false },
    visibility: 'gm',
  })
  t.equal(gmOnlyByPlayer.statusCode, 403, 'a player key cannot make a GM-only roll')
})

t.test(
  'events name their character as it was called when they were recorded; a rename does not rewrite them',
  async (t) => {
    const own = await createCampaign(app, 'shock-meters')
    const { character, event: joined } = await createCharacter(app, own.campaign, own.auth, { name: 'Vera Okafor' })
    const ids: Ids = { campaignId: own.campaign.id, characterId: character.id }
    const player = await mintPlayerKey(app, own.campaign, own.auth, [character.id])
    t.equal(joined.characterName, 'Vera Okafor', 'the creation names the character')

    const held = created(
      await act(app, own.auth, ids, 'stress-check', { request: { meter: 'violence', rank: 4 }, dice: provided(5) }),
      'the stress check',
    )
    t.equal(held.event.characterName, 'Vera Okafor', 'the command answer names the character')
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/v1/campaigns/${ids.campaignId}/characters/${ids.characterId}`,
      headers: own.auth,
      payload: { name: 'Vera "Doc" Okafor' },
    })
    t.equal(renamed.statusCode, 200, `the rename is accepted: ${renamed.body}`)
    t.equal(renamed.json().event.characterName, 'Vera "Doc" Okafor', 'the renaming edit carries the new name')

    const expected = ['Vera Okafor', 'Vera Okafor', 'Vera "Doc" Okafor']
    for (const [who, auth] of [
      ['the GM', own.auth],
      ['a player', player.auth],
    ] as const) {
      for (const sheets of ['full', 'none']) {
        const listed = await allEvents(app, auth, ids.campaignId, { sheets })
        t.same(
          listed.map((event) => event.characterName),
          expected,
          `${who}'s history (sheets=${sheets}) keeps the name each event was recorded with`,
        )
      }
    }
    const one = await app.inject({ url: `/v1/campaigns/${ids.campaignId}/events/${held.event.id}`, headers: own.auth })
    t.equal(one.json().characterName, 'Vera Okafor', 'one event read alone keeps its name after the rename')
  },
)
