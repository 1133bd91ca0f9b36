import t from 'tap'
import { failure, meters, resists, run } from './helpers.js'

const patient = {
  identities: [resists('Soldier', 45, 'violence'), resists('Stoic', 30, 'self')],
  relationships: [{ name: 'Dr. Okafor', rating: 40 }],
}
/** Violence 4 failed against Soldier 45 (rolled 73): failed 0 → 1, stressed panic. */
const afterFailure = (gauge = meters(1)) =>
  run(
    'stress-check',
    { ...patient, meters: gauge },
    { meter: 'violence', rank: 4, response: 'panic', disorder: 'Hemophobia' },
    [73],
  ).sheet
const assist = { identity: 'Psychiatrist', rating: 55, relationship: 'Dr. Okafor' }

t.test(
  'Therapy fumble: "the patient takes a Self check of rank 2–3" — resolved at once with its own die',
  async (t) => {
    const calm = { ...afterFailure(), stressed: null }
    const resolved = run(
      'therapy-assistance',
      calm,
      { ...assist, selfCheckRank: 3, selfCheckResponse: 'paralysis' },
      [100, 60],
    )
    t.equal(resolved.outcome.tier, 'fumble', '00 fumbles')
    t.equal(resolved.outcome.effect, 'self-check', 'effect: Self check')
    t.same(
      resolved.dice.map((die) => die.purpose),
      ['therapy', 'defence'],
      'therapy die, then the Self check’s defence die',
    )
    t.match(
      resolved.outcome.selfCheck,
      { meter: 'self', rank: 3, trigger: 'therapist-fumble', defence: { name: 'Stoic', rating: 30 }, result: 'failed' },
      'Self 3 against Stoic 30 fails on 60',
    )
    t.same(resolved.sheet.meters.self, { hardened: 1, failed: 1 }, 'a failed Self notch')
    t.equal(resolved.sheet.stressed?.response, 'paralysis', 'stressed with the response given')
    t.equal(resolved.sheet.meters.violence.failed, 1, 'the treated notch stays')
    t.equal(resolved.sheet.lastCheck?.meter, 'self', 'the Self check is now the latest check')
    t.equal(resolved.outcome.selfCheck?.rank, 3, 'rank from the request')
    t.equal(run('therapy-assistance', calm, assist, [100, 60]).outcome.selfCheck?.rank, 2, 'rank 2 by default')
  },
)

t.test(
  'Therapy fumble: the Self check follows the avoidance order, so a patient still stressed avoids it',
  async (t) => {
    const resolved = run('therapy-assistance', afterFailure(), assist, [100])
    t.equal(resolved.outcome.selfCheck?.result, 'avoided', 'avoided')
    t.equal(resolved.outcome.selfCheck?.avoidedBecause, 'stressed', 'because still stressed')
    t.equal(resolved.dice.length, 1, 'only the therapy die')
  },
)

t.test('Therapy matched failure: "the therapist’s relationship with the patient drops 5"', async (t) => {
  const resolved = run('therapy-assistance', afterFailure(), assist, [66])
  t.equal(resolved.outcome.tier, 'matched-failure', '66 against 55')
  t.equal(resolved.outcome.effect, 'relationship-drop', 'relationship drops')
  t.same(resolved.outcome.relationship, { name: 'Dr. Okafor', before: 40, after: 35 }, '40 → 35')
  t.same(resolved.sheet.relationships, [{ name: 'Dr. Okafor', rating: 35 }], 'on the sheet')
  t.same(resolved.sheet.meters.violence, { hardened: 1, failed: 1 }, 'the notch stays')
  const noRelationship = run('therapy-assistance', afterFailure(), { identity: 'Psychiatrist', rating: 55 }, [66])
  t.equal(noRelationship.outcome.effect, 'none', 'without a relationship named there is nothing to drop')
  t.equal(
    failure('therapy-assistance', afterFailure(), { ...assist, relationship: 'Nobody' }).pointer,
    '/request/relationship',
    'an unknown relationship is refused',
  )
  const low = run(
    'therapy-assistance',
    { ...afterFailure(), relationships: [{ name: 'Dr. Okafor', rating: 3 }] },
    assist,
    [77],
  )
  t.equal(low.outcome.relationship?.after, 0, 'never below 0')
})

t.test('Therapy failure: nothing happens', async (t) => {
  const before = afterFailure()
  const resolved = run('therapy-assistance', before, assist, [70])
  t.equal(resolved.outcome.tier, 'failure', '70 against 55')
  t.equal(resolved.outcome.effect, 'none', 'no effect')
  t.same(resolved.sheet.meters, before.meters, 'meters unchanged')
  t.same(resolved.sheet.relationships, before.relationships, 'relationship unchanged')
  t.equal(resolved.sheet.lastCheck?.therapy, 'failure', 'the assistance is recorded on the check')
})

t.test('Therapy success: "the failed notch just taken becomes a hardened notch (patient consents)"', async (t) => {
  const resolved = run('therapy-assistance', afterFailure(), assist, [40])
  t.equal(resolved.outcome.effect, 'notch-hardened', 'converted')
  t.same(resolved.sheet.meters.violence, { hardened: 2, failed: 0 }, 'failed 1 → 0, hardened 1 → 2')
  t.equal(resolved.sheet.abilities.connect, 55, 'abilities follow the new hardened notch')
  const declined = run('therapy-assistance', afterFailure(), { ...assist, consent: false }, [40])
  t.equal(declined.outcome.effect, 'declined', 'without consent nothing changes')
  t.same(declined.sheet.meters.violence, { hardened: 1, failed: 1 }, 'the notch stays failed')
})

for (const [face, tier] of [
  [44, 'matched-success'],
  [1, 'critical'],
] as const) {
  t.test(`Therapy ${tier}: "the notch just taken is erased"`, async (t) => {
    const resolved = run('therapy-assistance', afterFailure(meters(1, { violence: { failed: 2 } })), assist, [face])
    t.equal(resolved.outcome.tier, tier, tier)
    t.equal(resolved.outcome.effect, 'notch-erased', 'erased')
    t.same(resolved.sheet.meters.violence, { hardened: 1, failed: 2 }, 'failed 3 → 2, hardened unchanged')
  })
}

t.test(
  'Immediate assistance that erases the fifth failed notch removes the disorder it brought: "When a character reaches five failed notches in a meter, they suffer mental trauma"',
  async (t) => {
    const traumatised = afterFailure(meters(1, { violence: { failed: 4 } }))
    t.equal(traumatised.disorders[0]?.name, 'Hemophobia', 'trauma recorded')
    const resolved = run('therapy-assistance', traumatised, assist, [22])
    t.same(resolved.sheet.meters.violence, { hardened: 1, failed: 4 }, 'back to 4')
    t.same(resolved.sheet.disorders, [], 'disorder gone')
    t.equal(resolved.outcome.disorderRemoved?.name, 'Hemophobia', 'the outcome says which')
  },
)

t.test('Immediate assistance works only on a fresh failed notch, once', async (t) => {
  t.equal(failure('therapy-assistance', patient, assist).code, 'NO_FAILED_NOTCH', 'no check yet')
  const passed = run('stress-check', patient, { meter: 'violence', rank: 4 }, [20]).sheet
  t.same(
    [failure('therapy-assistance', passed, assist).code, failure('therapy-assistance', passed, assist).kind],
    ['NO_FAILED_NOTCH', 'conflict'],
    'a passed check has no failed notch (409)',
  )
  const treated = run('therapy-assistance', afterFailure(), assist, [70]).sheet
  t.equal(
    failure('therapy-assistance', treated, assist).code,
    'CHECK_TREATED',
    'a second assistance on the same check is refused',
  )
  t.equal(failure('passion-reroll', treated, { passion: 'fear' }).code, 'UNKNOWN_PASSION', 'passion checks come first')
  const withFear = { ...treated, passions: { fear: { text: 'Blood' }, rage: null, noble: null } }
  t.equal(
    failure('passion-reroll', withFear, { passion: 'fear' }).code,
    'CHECK_TREATED',
    'no passion re-roll after therapy',
  )
  t.equal(
    failure('therapy-assistance', run('new-session', afterFailure(), {}).sheet, assist).code,
    'CHECK_CLOSED',
    'too late after a new session',
  )
})
