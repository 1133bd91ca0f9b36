import t from 'tap'
import { createCampaign, createCharacter, PROBLEM } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, allEvents, created, getCharacter, provided, type Ids, type Problem } from '../helpers/commands.js'

// A VTT can roll first and report after: surplus faces are kept as unused, missing ones named.
const app = await buildTestApp(t)

async function setUp(sheet?: Record<string, unknown>) {
  const { campaign, auth } = await createCampaign(app, 'shock-meters')
  const { character } = await createCharacter(app, campaign, auth, {
    name: 'Vera Okafor',
    ...(sheet ? { sheet } : {}),
  })
  const ids: Ids = { campaignId: campaign.id, characterId: character.id }
  return { auth, ids }
}

type DiceProblem = Problem & {
  needed: { count: number; sides: number; purpose: string; exploding: boolean }[]
  facesProvided: number
}

t.test('a d100 rolled for a stress check that is avoided is recorded as unused: 201', async (t) => {
  const { auth, ids } = await setUp({ meters: { violence: { hardened: 4, failed: 0 } } })
  const result = created(
    await act(app, auth, ids, 'stress-check', { request: { meter: 'violence', rank: 4 }, dice: provided(85) }),
    'the avoided check',
  )
  t.equal((result.event.outcome as { result?: string } | null)?.result, 'avoided', 'Hardened 4 avoids rank 4')
  t.same(result.event.dice, [], 'no die is used')
  t.same(result.event.unusedFaces, [85], 'the face the VTT rolled is kept as unused')
  const [listed] = (await allEvents(app, auth, ids.campaignId, { type: 'stress-check' })).filter(
    (event) => event.id === result.event.id,
  )
  t.same(listed?.unusedFaces, [85], 'the history shows it too')
  const one = await app.inject({ url: `/v1/campaigns/${ids.campaignId}/events/${result.event.id}`, headers: auth })
  t.same(one.json().unusedFaces, [85], 'and the event read alone')
  const joined = (await allEvents(app, auth, ids.campaignId, { type: 'character.created' }))[0]
  t.same(joined?.unusedFaces, [], 'an event without provided dice has none')
})

t.test('a stress check sent without its d100 is 422 DICE_COUNT naming the die, and records nothing', async (t) => {
  const { auth, ids } = await setUp()
  const before = await getCharacter(app, auth, ids)
  const res = await act(app, auth, ids, 'stress-check', {
    request: { meter: 'violence', rank: 4 },
    dice: provided(),
  })
  t.equal(res.statusCode, 422, '422')
  t.match(res.headers['content-type'], PROBLEM, 'problem details')
  const problem = res.json<DiceProblem>()
  t.equal(problem.code, 'DICE_COUNT', 'DICE_COUNT')
  t.same(problem.needed, [{ count: 1, sides: 100, purpose: 'defence', exploding: false }], 'one d100 for defence')
  t.equal(problem.facesProvided, 0, 'none were provided')
  t.match(problem.detail, /1 d100 for defence/, 'the detail says it in words')
  t.same(problem.errors, [{ pointer: '/body/dice/faces/0', detail: problem.detail }], 'pointing where the face goes')
  t.equal((await getCharacter(app, auth, ids)).version, before.version, 'nothing was recorded')
})

t.test(
  'a therapist’s fumble asks for the patient’s Self check die; sent again with it, the event is recorded',
  async (t) => {
    const { auth, ids } = await setUp()
    created(
      await act(app, auth, ids, 'stress-check', {
        request: { meter: 'violence', rank: 4, response: 'panic' },
        dice: provided(85),
      }),
      'the failed check',
    )
    const clear = await act(app, auth, ids, 'clear-stressed', { request: {} })
    t.equal(clear.statusCode, 201, `the threat is gone: ${clear.body}`)
    const assist = { identity: 'Psychiatrist', rating: 55 }
    const fumbled = await act(app, auth, ids, 'therapy-assistance', { request: assist, dice: provided(100) })
    t.equal(fumbled.statusCode, 422, `the fumble needs another die: ${fumbled.body}`)
    const problem = fumbled.json<DiceProblem>()
    t.same(
      [problem.needed, problem.facesProvided],
      [[{ count: 1, sides: 100, purpose: 'defence', exploding: false }], 1],
      'the d100 the patient defends the Self check with, after the one face sent',
    )
    const settled = created(
      await act(app, auth, ids, 'therapy-assistance', { request: assist, dice: provided(100, 90) }),
      'the therapy with both dice',
    )
    t.same(
      settled.event.dice.map((die) => [die.purpose, die.face]),
      [
        ['therapy', 100],
        ['defence', 90],
      ],
      'both dice are recorded',
    )
  },
)

t.test('the stateless resolver keeps surplus faces as unused and names missing ones', async (t) => {
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/v1/resolve/reaction-rolls/reaction-roll', payload })
  const many = await post({ request: { ability: 'agility', pressure: 4 }, dice: provided(3, 4) })
  t.equal(many.statusCode, 200, `a surplus face is accepted: ${many.body}`)
  t.same(many.json().unusedFaces, [4], 'and answered as unused')
  const few = await post({ request: { ability: 'agility', pressure: 4, advantage: true }, dice: provided() })
  t.equal(few.statusCode, 422, 'missing faces are 422')
  t.same(
    few.json<DiceProblem>().needed,
    [
      { count: 1, sides: 6, purpose: 'reaction', exploding: false },
      { count: 1, sides: 6, purpose: 'advantage', exploding: false },
    ],
    'both dice of an advantage roll are named at once',
  )
})

t.test('resent with the dice it asked for under the same Idempotency-Key, the roll is recorded once', async (t) => {
  const { auth, ids } = await setUp()
  const headers = { 'idempotency-key': 'roll-first-report-after' }
  const request = { meter: 'violence', rank: 4, response: 'panic' }
  const short = await act(app, auth, ids, 'stress-check', { request, dice: provided() }, headers)
  t.equal(short.statusCode, 422, 'the first attempt lacks its d100')
  const full = created(
    await act(app, auth, ids, 'stress-check', { request, dice: provided(30, 7) }, headers),
    'the resend with the d100 (and a face to spare)',
  )
  t.same([full.event.dice.map((die) => die.face), full.event.unusedFaces], [[30], [7]], 'the d100 used, the spare kept')
  const again = await act(app, auth, ids, 'stress-check', { request, dice: provided(30, 7) }, headers)
  t.equal(again.statusCode, 201, 'a retry of the resend answers the same')
  t.equal(again.headers['idempotent-replayed'], 'true', 'as a replay')
  t.equal(again.json().event.id, full.event.id, 'of the same event')
})
