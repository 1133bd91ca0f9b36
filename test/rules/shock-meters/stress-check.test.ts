import t from 'tap'
import { failure, meters, passions, resists, run, sheetOf } from './helpers.js'

t.test('Hardened: "automatically avoids a stress check when hardened notches ≥ the stress rank"', async (t) => {
  for (const [hardened, rank] of [
    [4, 4],
    [6, 3],
  ] as const) {
    const before = sheetOf({ meters: meters(1, { violence: { hardened, failed: 2 } }) })
    const resolved = run('stress-check', before, { meter: 'violence', rank }, [])
    t.equal(resolved.outcome.result, 'avoided', `${hardened} hardened vs rank ${rank}: avoided`)
    t.equal(resolved.outcome.avoidedBecause, 'hardened', 'because hardened')
    t.same(resolved.dice, [], 'no die is rolled')
    t.same(resolved.sheet.meters, before.meters, '"will not mark any more hardened or failed notches"')
    t.equal(resolved.sheet.stressed, null, 'not stressed')
    t.same(resolved.pending, [], 'nothing pending')
  }
  t.equal(
    run('stress-check', { meters: meters(1, { violence: { hardened: 3 } }) }, { meter: 'violence', rank: 4 }, [70])
      .outcome.result,
    'failed',
    '3 hardened vs rank 4 is rolled',
  )
})

t.test('Hardening stops at 9, so a rank-10 check is never avoided by hardening', async (t) => {
  const resolved = run(
    'stress-check',
    { meters: meters(1, { isolation: { hardened: 9 } }) },
    { meter: 'isolation', rank: 10 },
    [10],
  )
  t.equal(resolved.outcome.result, 'passed', 'rolled and passed')
  t.equal(resolved.sheet.meters.isolation.hardened, 9, 'stays at 9')
  t.equal(resolved.sheet.lastCheck?.marked, 'none', 'no notch marked: the meter is full')
})

t.test(
  'Stressed: "automatically avoids stress checks while … still in flight, fight or frenzy mode" — on any meter',
  async (t) => {
    const before = sheetOf({ stressed: { meter: 'self', response: 'panic' } })
    const resolved = run('stress-check', before, { meter: 'violence', rank: 5 }, [])
    t.equal(resolved.outcome.result, 'avoided', 'avoided')
    t.equal(resolved.outcome.avoidedBecause, 'stressed', 'because stressed on another meter')
    t.same(resolved.sheet.meters, before.meters, 'no notch')
    t.same(resolved.sheet.stressed, before.stressed, 'the stressed state is unchanged')
    t.match(resolved.summary, /avoided — already stressed \(Self\)/, 'summary says why')
  },
)

t.test('Avoidance order: hardened is checked before stressed', async (t) => {
  const resolved = run(
    'stress-check',
    { meters: meters(5), stressed: { meter: 'self', response: 'frenzy' } },
    { meter: 'self', rank: 5 },
    [],
  )
  t.equal(resolved.outcome.avoidedBecause, 'hardened', 'hardened wins')
})

t.test('Broken: "five failed notches in the meter under attack … automatically fail it" — no roll', async (t) => {
  const before = sheetOf({
    meters: meters(1, { unnatural: { failed: 5 } }),
    disorders: [{ name: 'Paranoia', meter: 'unnatural' }],
  })
  const resolved = run('stress-check', before, { meter: 'unnatural', rank: 3, response: 'paralysis' }, [])
  t.equal(resolved.outcome.result, 'automatic-failure', 'automatic failure')
  t.same(resolved.dice, [], 'no die rolled')
  t.equal(resolved.outcome.defence, null, 'not defended')
  t.same(resolved.sheet.meters.unnatural, { hardened: 1, failed: 5 }, 'failed stays at 5')
  t.same(
    resolved.sheet.stressed,
    { meter: 'unnatural', response: 'paralysis', cause: null },
    'stressed with the response',
  )
  t.equal(resolved.outcome.trauma, false, 'no new trauma: the fifth notch was marked before')
  t.equal(resolved.sheet.disorders.length, 1, 'no new disorder')
  t.match(resolved.summary, /automatic failure — 5 failed notches, no roll/, 'summary')
})

t.test(
  'Broken applies only after hardened and stressed: "assuming their meter is not currently hardened to the rank … or … stressed"',
  async (t) => {
    const hardened = run(
      'stress-check',
      { meters: meters(1, { unnatural: { hardened: 4, failed: 5 } }) },
      { meter: 'unnatural', rank: 4 },
      [],
    )
    t.equal(hardened.outcome.avoidedBecause, 'hardened', 'hardened avoids first')
    const stressed = run(
      'stress-check',
      { meters: meters(1, { unnatural: { failed: 5 } }), stressed: { meter: 'self', response: 'panic' } },
      { meter: 'unnatural', rank: 4 },
      [],
    )
    t.equal(stressed.outcome.avoidedBecause, 'stressed', 'stressed avoids before broken')
  },
)

t.test('Resists Shock: "used instead of abilities … regardless of whether the identity value is less"', async (t) => {
  const resolved = run(
    'stress-check',
    { identities: [resists('Scrapper', 20, 'violence')] },
    { meter: 'violence', rank: 4 },
    [40],
  )
  t.same(
    resolved.outcome.defence,
    { kind: 'identity', name: 'Scrapper', rating: 20 },
    'Scrapper 20 defends although Fitness is 60',
  )
  t.equal(resolved.outcome.tier, 'failure', '40 fails against 20')
})

t.test('Resisting identity: the caller may choose one; by default the highest-rated one for that meter', async (t) => {
  const sheet = {
    identities: [resists('Cop', 30, 'violence'), resists('Soldier', 55, 'violence'), resists('Monk', 80, 'self')],
  }
  t.equal(
    run('stress-check', sheet, { meter: 'violence', rank: 4 }, [50]).outcome.defence?.name,
    'Soldier',
    'highest resisting Violence identity by default',
  )
  t.equal(
    run('stress-check', sheet, { meter: 'violence', rank: 4, identity: 'Cop' }, [50]).outcome.defence?.name,
    'Cop',
    'the named one, though lower',
  )
  t.equal(
    run('stress-check', sheet, { meter: 'isolation', rank: 4 }, [50]).outcome.defence?.name,
    'connect',
    'an identity resisting Self does not defend Isolation',
  )
  const wrong = failure('stress-check', sheet, { meter: 'violence', rank: 4, identity: 'Monk' })
  t.same(
    [wrong.code, wrong.pointer],
    ['IDENTITY_CANNOT_DEFEND', '/request/identity'],
    'naming an identity that resists another meter is 422',
  )
  const unknown = failure('stress-check', sheet, { meter: 'violence', rank: 4, identity: 'Pope' })
  t.same(
    [unknown.code, unknown.pointer],
    ['UNKNOWN_IDENTITY', '/request/identity'],
    'naming an unknown identity is 422',
  )
})

t.test('Substitutes: "an identity that otherwise subs for the ability won’t apply"', async (t) => {
  const sheet = {
    identities: [{ name: 'Socialite', rating: 90, features: [{ type: 'substitutes', ability: 'status' }] }],
  }
  const resolved = run('stress-check', sheet, { meter: 'helplessness', rank: 4 }, [70])
  t.same(resolved.outcome.defence, { kind: 'ability', name: 'status', rating: 60 }, 'Status itself, not Socialite 90')
  t.equal(resolved.outcome.result, 'failed', '70 fails against Status 60')
  const named = failure('stress-check', sheet, { meter: 'helplessness', rank: 4, identity: 'Socialite' })
  t.equal(named.code, 'IDENTITY_CANNOT_DEFEND', 'naming a substituting identity is refused')
  t.match(named.message, /substitutes never do/, 'the message says why')
})

// Fallbacks from the text; the rating is the derived ability: upbeats 65 − 5 × hardened of their
// own meter, except Fitness/Knowledge/Notice/Status/Connect are each some meter's upbeat.
const fallbacks = [
  ['helplessness', 'status', 'isolation'],
  ['isolation', 'connect', 'violence'],
  ['self', 'notice', 'unnatural'],
  ['unnatural', 'knowledge', 'self'],
  ['violence', 'fitness', 'helplessness'],
] as const
for (const [meter, ability, source] of fallbacks) {
  t.test(`Fallback: "defend ${meter} with ${ability}" at its derived value`, async (t) => {
    const resolved = run('stress-check', { meters: meters(0, { [source]: { hardened: 3 } }) }, { meter, rank: 5 }, [50])
    t.same(
      resolved.outcome.defence,
      { kind: 'ability', name: ability, rating: 50 },
      `${ability} = 65 − 5 × 3 hardened ${source} = 50`,
    )
    t.equal(resolved.outcome.tier, 'success', '50 against 50 succeeds ("roll ≤ rating")')
  })
}

// Face, rating, tier written out; 100 is "00".
const tierCases = [
  [1, 0, 'critical', 'passed'],
  [1, 45, 'critical', 'passed'],
  [100, 99, 'fumble', 'failed'],
  [33, 45, 'matched-success', 'passed'],
  [55, 45, 'matched-failure', 'failed'],
  [45, 45, 'success', 'passed'],
  [30, 45, 'success', 'passed'],
  [46, 45, 'failure', 'failed'],
  [10, 5, 'failure', 'failed'],
  [99, 99, 'matched-success', 'passed'],
] as const
for (const [face, rating, tier, result] of tierCases) {
  t.test(`Defence roll tiers: ${String(face % 100).padStart(2, '0')} against ${rating} is ${tier}`, async (t) => {
    const resolved = run(
      'stress-check',
      { identities: [resists('Defender', rating, 'self')] },
      { meter: 'self', rank: 5 },
      [face],
    )
    t.equal(resolved.outcome.tier, tier, `tier ${tier}`)
    t.equal(resolved.outcome.result, result, result)
    t.equal(resolved.outcome.reading, String(face % 100).padStart(2, '0'), 'reading as on the dice')
    t.same(resolved.dice, [{ sides: 100, face, purpose: 'defence', source: 'provided' }], 'one d100 for defence')
  })
}

t.test('Passing: "marks a hardened notch to the meter under attack" and the abilities follow', async (t) => {
  const resolved = run(
    'stress-check',
    { meters: meters(1, { violence: { hardened: 2 } }) },
    { meter: 'violence', rank: 4 },
    [33],
  )
  t.same(resolved.sheet.meters.violence, { hardened: 3, failed: 0 }, 'hardened 2 → 3')
  t.equal(resolved.sheet.abilities.connect, 50, 'Connect 55 → 50')
  t.equal(resolved.sheet.abilities.struggle, 30, 'Struggle 25 → 30')
  t.equal(resolved.sheet.stressed, null, 'not stressed')
  t.equal(resolved.summary, 'Violence 4 vs Fitness 60: rolled 33, matched success — hardened 2 → 3', 'summary line')
})

t.test('Passing the 25th hardened notch burns the character out', async (t) => {
  const resolved = run(
    'stress-check',
    { meters: meters(5, { self: { hardened: 4 } }) },
    { meter: 'self', rank: 6 },
    [5],
  )
  t.equal(resolved.sheet.totalHardened, 25, '25 hardened')
  t.equal(resolved.sheet.burnedOut, true, 'burned out')
  t.equal(resolved.outcome.burnedOut, true, 'the outcome says so')
  t.match(resolved.summary, /burned out/, 'and the summary')
})

t.test('Failing: "mark a failed notch", become stressed with the response given in advance', async (t) => {
  const resolved = run(
    'stress-check',
    {},
    { meter: 'self', rank: 4, response: 'frenzy', cause: 'Mirror showed a stranger' },
    [77],
  )
  t.same(resolved.sheet.meters.self, { hardened: 1, failed: 1 }, 'failed 0 → 1')
  t.same(
    resolved.sheet.stressed,
    { meter: 'self', response: 'frenzy', cause: 'Mirror showed a stranger' },
    'stressed: frenzy',
  )
  t.same(resolved.pending, [], 'nothing to decide')
  t.equal(
    resolved.summary,
    'Self 4 vs Notice 60: rolled 77, matched failure — failed 0 → 1; stressed (frenzy)',
    'summary line',
  )
})

t.test(
  'Failing without a response in advance: "must choose an instinctive response" — pending on the sheet',
  async (t) => {
    const resolved = run('stress-check', {}, { meter: 'self', rank: 4 }, [80])
    t.equal(resolved.sheet.stressed?.response, 'pending', 'response pending')
    t.equal(resolved.pending.map((decision) => decision.action)[0], 'stress-response', 'settled by stress-response')
    const blocked = failure('stress-check', resolved.sheet, { meter: 'violence', rank: 2 })
    t.same(
      [blocked.code, blocked.kind],
      ['RESPONSE_PENDING', 'conflict'],
      'a further check waits for the response (409)',
    )
    t.match(blocked.message, /stress-response/, 'the message names the action that settles it')
  },
)

t.test('Mental trauma: "reaches five failed notches in a meter … a permanent mental disorder"', async (t) => {
  const named = run(
    'stress-check',
    { meters: meters(1, { isolation: { failed: 4 } }) },
    { meter: 'isolation', rank: 5, response: 'panic', disorder: 'Agoraphobia', cause: 'Everyone forgot me' },
    [90],
  )
  t.equal(named.outcome.trauma, true, 'trauma')
  t.same(
    named.sheet.disorders,
    [{ name: 'Agoraphobia', meter: 'isolation', cause: 'Everyone forgot me', check: 1 }],
    'the named disorder is recorded',
  )
  t.same(named.pending, [], 'nothing pending')

  const pending = run(
    'stress-check',
    { meters: meters(1, { isolation: { failed: 4 } }) },
    { meter: 'isolation', rank: 5, response: 'panic' },
    [90],
  )
  t.equal(pending.sheet.disorders[0]?.name, null, 'unnamed: pending')
  t.equal(
    pending.pending.map((decision) => decision.action)[0],
    'record-disorder',
    'the GM names it with record-disorder',
  )
  const blocked = failure('stress-check', { ...pending.sheet, stressed: null }, { meter: 'self', rank: 3 })
  t.same([blocked.code, blocked.kind], ['DISORDER_PENDING', 'conflict'], 'a further check waits for the name (409)')

  const notYet = run(
    'stress-check',
    { meters: meters(1, { isolation: { failed: 3 } }) },
    { meter: 'isolation', rank: 5, response: 'panic' },
    [90],
  )
  t.equal(notYet.outcome.trauma, false, 'the fourth failed notch brings no trauma')
  t.same(notYet.sheet.disorders, [], 'no disorder')
})

t.test('Both decisions pending: both are listed, the player’s response first', async (t) => {
  const resolved = run(
    'stress-check',
    { meters: meters(1, { isolation: { failed: 4 } }) },
    { meter: 'isolation', rank: 5 },
    [90],
  )
  t.same(
    resolved.pending.map((decision) => decision.action),
    ['stress-response', 'record-disorder'],
    '"Reaching 5 failed notches → mental trauma": the response and the disorder are both open',
  )
  const answered = run('stress-response', resolved.sheet, { response: 'panic' })
  t.same(
    answered.pending.map((decision) => decision.action),
    ['record-disorder'],
    'then the disorder alone',
  )
})

t.test('Every check is recorded as the latest one, avoided ones too', async (t) => {
  const first = run('stress-check', {}, { meter: 'self', rank: 4, response: 'panic' }, [80])
  t.equal(
    failure('stress-check', {}, { meter: 'self', rank: 4, passion: 'fear' }).pointer,
    '/request/passion',
    'a passion in play must be on the sheet',
  )
  const withPassion = run(
    'stress-check',
    { passions },
    { meter: 'self', rank: 4, passion: 'fear', trigger: 'noble-held-back' },
    [80],
  )
  t.match(
    withPassion.sheet.lastCheck,
    {
      number: 1,
      meter: 'self',
      rank: 4,
      passion: 'fear',
      trigger: 'noble-held-back',
      result: 'failed',
      face: 80,
      tier: 'failure',
      marked: 'failed',
      setStressed: true,
      trauma: false,
    },
    'what the check did',
  )
  const second = run('stress-check', first.sheet, { meter: 'violence', rank: 2 }, [])
  t.match(
    second.sheet.lastCheck,
    { number: 2, result: 'avoided', avoidedBecause: 'stressed', face: null },
    'an avoided check replaces it',
  )
  t.equal(second.sheet.stressChecks, 2, 'two checks faced')
})

t.test('Request fields are checked: rank 1..10, known fields only', async (t) => {
  t.equal(failure('stress-check', {}, { meter: 'self', rank: 11 }).pointer, '/request/rank', 'rank 11')
  t.equal(failure('stress-check', {}, { meter: 'self', rank: 0 }).pointer, '/request/rank', 'rank 0')
  t.equal(failure('stress-check', {}, { meter: 'ego', rank: 3 }).pointer, '/request/meter', 'unknown meter')
  t.equal(failure('stress-check', {}, { meter: 'self', rank: 3, luck: 1 }).pointer, '/request/luck', 'unknown field')
  t.equal(failure('stress-check', {}, { rank: 3 }).kind, 'invalid', 'missing meter')
})
