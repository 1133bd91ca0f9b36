import t from 'tap'
import { createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'

const app = await buildTestApp(t)

interface FieldError {
  pointer: string
}
const pointersOf = (body: { errors?: FieldError[] }) => (body.errors ?? []).map((error) => error.pointer)

const charactersUrl = (campaign: { id: string }) => `/v1/campaigns/${campaign.id}/characters`

t.test('POST …/characters fills defaults and computes derived values', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const res = await app.inject({
    method: 'POST',
    url: charactersUrl(campaign),
    headers: auth,
    payload: { name: 'Vera Okafor', sheet: { meters: { violence: { hardened: 4 } } } },
  })
  t.equal(res.statusCode, 201, 'created')
  const { character, event } = res.json()
  t.match(character, { name: 'Vera Okafor', ruleset: 'shock-meters', version: 1, archivedAt: null }, 'a new character')
  t.same(
    character.sheet.meters.self,
    { hardened: 1, failed: 0 },
    'a meter left out starts with 1 hardened notch, as the rules say',
  )
  t.same(character.sheet.meters.violence, { hardened: 4, failed: 0 }, 'the given meter is kept, failed filled in')
  t.equal(character.sheet.abilities.connect, 45, 'Connect (violence upbeat) = 65 − 5 × 4')
  t.equal(character.sheet.abilities.struggle, 35, 'Struggle (violence downbeat) = 15 + 5 × 4')
  t.equal(character.sheet.abilities.fitness, 60, 'Fitness (helplessness upbeat) = 65 − 5 × 1')
  t.equal(character.sheet.totalHardened, 8, 'the total of hardened notches')
  t.match(
    event,
    { type: 'character.created', characterId: character.id, sheetBefore: null, sheetAfter: character.sheet },
    'recorded as a character.created event',
  )
})

t.test('derived values sent in the sheet are recomputed, not trusted', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth, {
    name: 'Cheater',
    sheet: { abilities: { connect: 99 }, totalHardened: 40, burnedOut: true },
  })
  t.equal(character.sheet.abilities.connect, 60, 'Connect follows the gauge')
  t.equal(character.sheet.totalHardened, 5, 'the total follows the gauge')
  t.equal(character.sheet.burnedOut, false, 'burn-out follows the gauge')
})

t.test('a bad sheet is 422 naming the field under /body/sheet', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const cases = [
    { sheet: { meters: { violence: { hardened: 12 } } }, pointer: '/body/sheet/meters/violence/hardened' },
    { sheet: { meters: { self: { failed: 'two' } } }, pointer: '/body/sheet/meters/self/failed' },
    { sheet: { shoeSize: 44 }, pointer: '/body/sheet/shoeSize' },
  ]
  for (const { sheet, pointer } of cases) {
    const res = await app.inject({
      method: 'POST',
      url: charactersUrl(campaign),
      headers: auth,
      payload: { name: 'Broken', sheet },
    })
    t.equal(res.statusCode, 422, `${JSON.stringify(sheet)} is refused`)
    t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
    t.same(pointersOf(res.json()), [pointer], `the problem names ${pointer}`)
  }
  const noName = await app.inject({ method: 'POST', url: charactersUrl(campaign), headers: auth, payload: {} })
  t.equal(noName.statusCode, 422, 'a character needs a name')
  t.same(pointersOf(noName.json()), ['/body/name'], 'and the problem says so')

  const list = await app.inject({ url: charactersUrl(campaign), headers: auth })
  t.same(list.json().data, [], 'no character was created by the refused requests')
  const events = await app.inject({ url: `/v1/campaigns/${campaign.id}/events`, headers: auth })
  t.same(events.json().data, [], 'and no event was recorded')
})

t.test('a body may name the campaign’s rule set (as a typed client does), never another one', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created = await app.inject({
    method: 'POST',
    url: charactersUrl(campaign),
    headers: auth,
    payload: { ruleset: 'shock-meters', name: 'Vera Okafor' },
  })
  t.equal(created.statusCode, 201, 'its own rule set is accepted')
  const { character } = created.json()
  t.equal(character.ruleset, 'shock-meters', 'the character is of the campaign’s rule set')

  const other = await app.inject({
    method: 'POST',
    url: charactersUrl(campaign),
    headers: auth,
    payload: { ruleset: 'trauma-table', name: 'Wrong table' },
  })
  t.equal(other.statusCode, 422, 'another rule set is refused')
  t.same(pointersOf(other.json()), ['/body/ruleset'], 'naming the field')
  t.match(other.json().detail, /plays shock-meters, not trauma-table/, 'and saying which rule set the campaign plays')

  const patch = (payload: object) =>
    app.inject({ method: 'PATCH', url: `${charactersUrl(campaign)}/${character.id}`, headers: auth, payload })
  const renamed = await patch({ ruleset: 'shock-meters', name: 'Vera "Doc" Okafor' })
  t.equal(renamed.statusCode, 200, 'an edit may name the rule set too')
  const refused = await patch({ ruleset: 'reaction-rolls', name: 'Nobody' })
  t.equal(refused.statusCode, 422, 'but not another one')
  t.same(pointersOf(refused.json()), ['/body/ruleset'], 'naming the field')
  const unknown = await patch({ ruleset: 'chess', name: 'Nobody' })
  t.equal(unknown.statusCode, 422, 'an unknown rule set is refused by the schema')

  const events = await app.inject({ url: `/v1/campaigns/${campaign.id}/events`, headers: auth })
  t.same(
    events.json().data.map((event: { type: string }) => event.type),
    ['character.created', 'character.updated'],
    'the refused requests recorded nothing',
  )
})

t.test('GET …/characters pages with a cursor: limit 2 over 5 characters', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const created: string[] = []
  for (const name of ['Ann', 'Ben', 'Cas', 'Dee', 'Eli']) {
    created.push((await createCharacter(app, campaign, auth, { name })).character.id)
  }

  const seen: string[] = []
  const pages: { size: number; hasMore: boolean }[] = []
  let after: string | null = null
  do {
    const query: string = after ? `?limit=2&after=${after}` : '?limit=2'
    const res = await app.inject({ url: `${charactersUrl(campaign)}${query}`, headers: auth })
    t.equal(res.statusCode, 200, `page ${pages.length + 1} is served`)
    const page = res.json<{ data: { id: string }[]; hasMore: boolean; nextCursor: string | null }>()
    seen.push(...page.data.map((character) => character.id))
    pages.push({ size: page.data.length, hasMore: page.hasMore })
    t.equal(page.nextCursor, page.hasMore ? page.data.at(-1)!.id : null, 'the cursor is the last id, while more follow')
    after = page.nextCursor
  } while (after !== null && pages.length < 10)

  t.same(
    pages,
    [
      { size: 2, hasMore: true },
      { size: 2, hasMore: true },
      { size: 1, hasMore: false },
    ],
    'three pages: 2, 2 and 1',
  )
  t.same(seen, created, 'every character exactly once, in creation order')

  const tooMany = await app.inject({ url: `${charactersUrl(campaign)}?limit=101`, headers: auth })
  t.equal(tooMany.statusCode, 400, 'a limit above 100 is a bad request')
  t.same(pointersOf(tooMany.json()), ['/querystring/limit'], 'naming the limit')
})

t.test('archived characters are listed only with includeArchived', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const kept = await createCharacter(app, campaign, auth, { name: 'Kept' })
  const gone = await createCharacter(app, campaign, auth, { name: 'Gone' })
  const archived = await app.inject({
    method: 'DELETE',
    url: `${charactersUrl(campaign)}/${gone.character.id}`,
    headers: auth,
  })
  t.equal(archived.statusCode, 200, 'archived')

  const ids = async (query: string) =>
    (
      (await app.inject({ url: `${charactersUrl(campaign)}${query}`, headers: auth })).json().data as { id: string }[]
    ).map((character) => character.id)
  t.same(await ids(''), [kept.character.id], 'the archived character is hidden')
  t.same(await ids('?includeArchived=true'), [kept.character.id, gone.character.id], 'and listed when asked for')
})

t.test('GET …/characters/{id} has the version as its ETag', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const res = await app.inject({ url: `${charactersUrl(campaign)}/${character.id}`, headers: auth })
  t.equal(res.statusCode, 200, 'found')
  t.equal(res.headers.etag, '"1"', 'a new character is version 1')
  t.same(res.json(), character, 'the character as created')

  const unknown = await app.inject({
    url: `${charactersUrl(campaign)}/0193a5e2-7c1d-7000-8000-000000000001`,
    headers: auth,
  })
  t.equal(unknown.statusCode, 404, 'an unknown character is not found')
  t.match(unknown.headers['content-type'], PROBLEM, 'as problem+json')
})

t.test(
  'PATCH reads application/merge-patch+json (RFC 7396) as it reads application/json; no other route does',
  async (t) => {
    const { campaign, auth } = await createCampaign(app)
    const { character } = await createCharacter(app, campaign, auth)
    const url = `${charactersUrl(campaign)}/${character.id}`
    const patched = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ name: 'Vera "Doc" Okafor', sheet: { meters: { violence: { hardened: 3 } } } }),
    })
    t.equal(patched.statusCode, 200, 'edited')
    t.equal(patched.json().character.name, 'Vera "Doc" Okafor', 'renamed')
    t.same(patched.json().character.sheet.meters.violence, { hardened: 3, failed: 0 }, 'the sheet merged as with JSON')

    const removed = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, 'content-type': 'application/merge-patch+json; charset=utf-8' },
      payload: JSON.stringify({ sheet: { meters: { violence: null } } }),
    })
    t.equal(removed.statusCode, 200, 'a parameter on the type is fine')
    t.same(
      removed.json().character.sheet.meters.violence,
      { hardened: 1, failed: 0 },
      'null removes: the default again',
    )

    const deep = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      payload: '{"sheet":' + '['.repeat(100) + ']'.repeat(100) + '}',
    })
    t.equal(deep.statusCode, 400, 'the body limits hold for a merge patch too')
    t.equal(deep.json().code, 'BODY_TOO_DEEP')

    const asText = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: '{"name":"X"}',
    })
    t.equal(asText.statusCode, 415, 'text is not read')
    t.equal(
      asText.json().detail,
      'Send the body as application/json or application/merge-patch+json, not text/plain.',
      'the 415 names both types the route reads',
    )

    const created = await app.inject({
      method: 'POST',
      url: charactersUrl(campaign),
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ name: 'Ilse' }),
    })
    t.equal(created.statusCode, 415, 'a creation is not a patch')
    t.match(created.headers['content-type'], PROBLEM, 'as problem+json')
    t.equal(created.json().detail, 'Send the body as application/json, not application/merge-patch+json.')
  },
)

t.test('PATCH merges the sheet, recomputes derived values and records character.updated', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const url = `${charactersUrl(campaign)}/${character.id}`
  const etag = (await app.inject({ url, headers: auth })).headers.etag as string

  const res = await app.inject({
    method: 'PATCH',
    url,
    headers: { ...auth, 'if-match': etag },
    payload: {
      name: 'Vera "Doc" Okafor',
      sheet: { meters: { violence: { hardened: 3 } } },
      reason: 'Backstory: two tours as a field medic',
    },
  })
  t.equal(res.statusCode, 200, 'edited')
  t.equal(res.headers.etag, '"2"', 'the new ETag is the next version')
  const { event, character: after } = res.json()
  t.equal(after.name, 'Vera "Doc" Okafor', 'renamed')
  t.same(after.sheet.meters.violence, { hardened: 3, failed: 0 }, 'the patched meter, the rest of it kept')
  t.same(after.sheet.meters.self, character.sheet.meters.self, 'other meters untouched')
  t.equal(after.sheet.abilities.connect, 50, 'Connect recomputed: 65 − 5 × 3')
  t.match(
    event,
    {
      type: 'character.updated',
      characterId: character.id,
      sheetBefore: character.sheet,
      sheetAfter: after.sheet,
      summary: /field medic/,
    },
    'a character.updated event with the sheet before and after, and the reason',
  )

  const history = await app.inject({
    url: `/v1/campaigns/${campaign.id}/events?type=character.updated`,
    headers: auth,
  })
  t.same(
    history.json().data.map((recorded: { id: string }) => recorded.id),
    [event.id],
    'the edit is in the history',
  )

  const removed = await app.inject({
    method: 'PATCH',
    url,
    headers: auth,
    payload: { sheet: { meters: { violence: null } } },
  })
  t.equal(removed.statusCode, 200, 'null removes a field (merge patch)')
  t.same(removed.json().character.sheet.meters.violence, { hardened: 1, failed: 0 }, 'which then takes its default')

  const bad = await app.inject({
    method: 'PATCH',
    url,
    headers: auth,
    payload: { sheet: { meters: { self: { hardened: 10 } } } },
  })
  t.equal(bad.statusCode, 422, 'a patch that breaks the sheet is refused')
  t.same(pointersOf(bad.json()), ['/body/sheet/meters/self/hardened'], 'naming the field')
})

t.test('a stale If-Match is 412 and nothing is written', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const url = `${charactersUrl(campaign)}/${character.id}`
  const stale = (await app.inject({ url, headers: auth })).headers.etag as string
  const first = await app.inject({
    method: 'PATCH',
    url,
    headers: { ...auth, 'if-match': stale },
    payload: { name: 'One' },
  })
  t.equal(first.statusCode, 200, 'the first edit goes through')

  const before = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: auth })
  const res = await app.inject({
    method: 'PATCH',
    url,
    headers: { ...auth, 'if-match': stale },
    payload: { name: 'Two', sheet: { meters: { self: { hardened: 5 } } } },
  })
  t.equal(res.statusCode, 412, 'the second edit, made against the old version, is refused')
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  t.match(res.json(), { code: 'PRECONDITION_FAILED', detail: /version 2/ }, 'saying which version is current')

  const now = await app.inject({ url, headers: auth })
  t.equal(now.headers.etag, '"2"', 'the version did not move')
  t.equal(now.json().name, 'One', 'the name is the first edit’s')
  t.same(now.json().sheet, character.sheet, 'the sheet is untouched')
  const afterCampaign = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: auth })
  t.equal(afterCampaign.json().eventCount, before.json().eventCount, 'no event was recorded')
})

t.test('a malformed If-Match is 412', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const url = `${charactersUrl(campaign)}/${character.id}`
  for (const ifMatch of ['garbage', '"one"', '"1", "2"']) {
    const res = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...auth, 'if-match': ifMatch },
      payload: { name: 'X' },
    })
    t.equal(res.statusCode, 412, `If-Match: ${ifMatch} is refused`)
  }
  const now = await app.inject({ url, headers: auth })
  t.equal(now.json().version, 1, 'nothing was written')
  const current = await app.inject({
    method: 'PATCH',
    url,
    headers: { ...auth, 'if-match': '"1"' },
    payload: { name: 'X' },
  })
  t.equal(current.statusCode, 200, 'the current ETag is accepted')
})

t.test('DELETE archives the character; it then takes no rolls and no edits (409)', async (t) => {
  const { campaign, auth } = await createCampaign(app)
  const { character } = await createCharacter(app, campaign, auth)
  const url = `${charactersUrl(campaign)}/${character.id}`

  const res = await app.inject({ method: 'DELETE', url, headers: auth })
  t.equal(res.statusCode, 200, 'archived')
  t.match(res.json(), { event: { type: 'character.archived' } }, 'recorded as a character.archived event')
  t.type(res.json().character.archivedAt, 'string', 'with the time it was archived')

  const roll = await app.inject({
    method: 'POST',
    url: `${url}/stress-check`,
    headers: auth,
    payload: { request: { meter: 'self', rank: 3 } },
  })
  t.equal(roll.statusCode, 409, 'an archived character takes no rolls')
  t.match(roll.headers['content-type'], PROBLEM, 'as problem+json')
  t.match(roll.json().detail, /archived/, 'saying why')
  const edit = await app.inject({ method: 'PATCH', url, headers: auth, payload: { name: 'Back' } })
  t.equal(edit.statusCode, 409, 'nor edits')
  const again = await app.inject({ method: 'DELETE', url, headers: auth })
  t.equal(again.statusCode, 409, 'archiving twice is a conflict')

  const read = await app.inject({ url, headers: auth })
  t.equal(read.statusCode, 200, 'it can still be read')
  t.type(read.json().archivedAt, 'string', 'and shows it is archived')
})

t.test('settings a stored sheet exceeds are refused with 409, so no character is left unable to roll', async (t) => {
  const { campaign, auth } = await createCampaign(app, 'reaction-rolls')
  const { character } = await createCharacter(app, campaign, auth, {
    name: 'Furious',
    sheet: { emotions: { anger: 5 } },
  })

  const res = await app.inject({
    method: 'PATCH',
    url: `/v1/campaigns/${campaign.id}`,
    headers: auth,
    payload: { settings: { emotionTopStage: 3 } },
  })
  t.equal(res.statusCode, 409, 'a top stage below Furious’s anger is refused')
  t.match(res.json().detail, new RegExp(character.id), 'naming the character in the way')
  const stored = await app.inject({ url: `/v1/campaigns/${campaign.id}`, headers: auth })
  t.equal(stored.json().settings.emotionTopStage, 5, 'the settings are unchanged')

  const roll = await app.inject({
    method: 'POST',
    url: `${charactersUrl(campaign)}/${character.id}/reaction-roll`,
    headers: auth,
    payload: { request: { ability: 'agility', pressure: 4 } },
  })
  t.equal(roll.statusCode, 201, 'and the character can still roll')

  const fits = await app.inject({
    method: 'PATCH',
    url: `/v1/campaigns/${campaign.id}`,
    headers: auth,
    payload: { settings: { emotionTopStage: 6 } },
  })
  t.equal(fits.statusCode, 200, 'settings every sheet fits are accepted')
})
