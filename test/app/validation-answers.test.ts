import t, { type Test } from 'tap'
import { createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, created, decide, provided, type Ids } from '../helpers/commands.js'

// One app for the file; every test plays in its own campaign.
const app = await buildTestApp(t)

interface Answer {
  statusCode: number
  headers: Record<string, unknown>
  json(): unknown
}

const METERS = 'helplessness, isolation, self, unnatural, violence'

/** The answer is problem+json with one field error, at `pointer`, saying `detail`. */
function oneClearError(t: Test, res: Answer, status: number, pointer: string, detail: string) {
  t.equal(res.statusCode, status, `answered ${status}`)
  t.match(res.headers['content-type'], PROBLEM, 'as problem+json')
  const body = res.json() as { errors?: unknown[]; detail: string }
  t.same(body.errors, [{ pointer, detail }], 'one error, naming the field and what it may be')
  t.match(body.detail, detail, 'the detail says it too')
}

async function storedCharacter(ruleset: string): Promise<{ auth: { authorization: string }; ids: Ids }> {
  const { campaign, auth } = await createCampaign(app, ruleset)
  const { character } = await createCharacter(app, campaign, auth)
  return { auth, ids: { campaignId: campaign.id, characterId: character.id } }
}

const stressCheck = { meter: 'violense', rank: 4, trigger: 'kill-in-fight' }

t.test('a misspelt meter on a stored character is one error listing the meters and the one meant', async (t) => {
  const { auth, ids } = await storedCharacter('shock-meters')
  const res = await act(app, auth, ids, 'stress-check', { request: stressCheck })
  oneClearError(t, res, 422, '/body/request/meter', `must be one of ${METERS} (did you mean violence?)`)
})

t.test('a misspelt meter on the stateless stress check is the same one error', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/resolve/shock-meters/stress-check',
    payload: { sheet: {}, request: stressCheck },
  })
  oneClearError(t, res, 422, '/body/request/meter', `must be one of ${METERS} (did you mean violence?)`)
})

t.test('a misspelt enum in a query string is 400 naming the values and the one meant', async (t) => {
  const { auth, ids } = await storedCharacter('shock-meters')
  const res = await app.inject({ url: `/v1/campaigns/${ids.campaignId}/events?sheets=nonee`, headers: auth })
  oneClearError(t, res, 400, '/querystring/sheets', 'must be one of full, none (did you mean none?)')
})

t.test('a misspelt trauma source is one error naming the sources', async (t) => {
  const { auth, ids } = await storedCharacter('trauma-table')
  const res = await act(app, auth, ids, 'trauma-roll', { request: { source: 'stresful' } })
  oneClearError(
    t,
    res,
    422,
    '/body/request/source',
    'must be one of none, stressful, traumatic, maddening (did you mean stressful?)',
  )
})

t.test('a pressure outside a union of numbers names the numbers and suggests none', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/resolve/reaction-rolls/reaction-roll',
    payload: { sheet: {}, request: { ability: 'agility', pressure: 5 } },
  })
  oneClearError(t, res, 422, '/body/request/pressure', 'must be one of 4, 6, 8')
})

t.test('a value far from every allowed one gets no suggestion', async (t) => {
  const res = await app.inject({ method: 'POST', url: '/v1/campaigns', payload: { name: 'A', ruleset: 'chess' } })
  oneClearError(t, res, 422, '/body/ruleset', 'must be one of shock-meters, trauma-table, reaction-rolls')
})

t.test('a union of a constant and an object speaks of the branch the value was meant for', async (t) => {
  const url = '/v1/resolve/trauma-table/trauma-roll'
  const wrongField = await app.inject({
    method: 'POST',
    url,
    payload: { sheet: {}, request: { response: { ability: 5 } } },
  })
  oneClearError(t, wrongField, 422, '/body/request/response/ability', 'must be string')
  const neither = await app.inject({ method: 'POST', url, payload: { sheet: {}, request: { response: 'acept' } } })
  oneClearError(t, neither, 422, '/body/request/response', 'must be accept or an object')
})

t.test('a sheet feature of an unknown type names the types, the rules’ own check included', async (t) => {
  const identity = (feature: object) => ({ identities: [{ name: 'Soldier', rating: 45, features: [feature] }] })
  const url = '/v1/resolve/shock-meters/stress-check'
  const request = { meter: 'violence', rank: 4, trigger: 'kill-in-fight' }
  const badType = await app.inject({
    method: 'POST',
    url,
    payload: { sheet: identity({ type: 'resists-shok', meter: 'violence' }), request },
  })
  t.equal(badType.statusCode, 422, 'answered 422')
  t.same(
    badType.json<{ errors: unknown[] }>().errors,
    [
      {
        pointer: '/body/sheet/identities/0/features/0/type',
        detail:
          'sheet/identities/0/features/0/type must be one of resists-shock, therapeutic, substitutes, other (did you mean resists-shock?)',
      },
    ],
    'one error at the type, listing every type',
  )
  const badMeter = await app.inject({
    method: 'POST',
    url,
    payload: { sheet: identity({ type: 'resists-shock', meter: 'violense' }), request },
  })
  t.match(
    badMeter.json<{ errors: unknown[] }>().errors,
    [
      {
        pointer: '/body/sheet/identities/0/features/0/meter',
        detail: /must be one of .+ \(did you mean violence\?\)$/,
      },
    ],
    'a feature of a known type is checked as that type',
  )
})

t.test('a decision settled with a misspelt response names the responses (the rules’ own check)', async (t) => {
  const { auth, ids } = await storedCharacter('shock-meters')
  // Violence 5 against Fitness 60: 99 is a matched failure, and no response was chosen.
  const roll = created(
    await act(app, auth, ids, 'stress-check', { request: { meter: 'violence', rank: 5 }, dice: provided(99) }),
    'the stress check',
  )
  const res = await decide(app, auth, ids.campaignId, roll.event.id, { request: { response: 'panik' } })
  t.equal(res.statusCode, 422, 'answered 422')
  t.match(res.json(), {
    code: 'REQUEST_INVALID',
    detail: 'request/response must be one of panic, paralysis, frenzy (did you mean panic?)',
    errors: [{ pointer: '/body/request/response' }],
  })
})
