import t from 'tap'
import { failure, meters, run } from './helpers.js'

const pendingResponse = () => run('stress-check', {}, { meter: 'self', rank: 4 }, [80]).sheet
const pendingDisorder = () =>
  run(
    'stress-check',
    { meters: meters(1, { self: { failed: 4 } }) },
    { meter: 'self', rank: 4, response: 'panic', cause: 'The mirror' },
    [80],
  ).sheet

t.test(
  'Stress response: "must choose an instinctive response" — panic, paralysis or frenzy settles the pending one',
  async (t) => {
    for (const response of ['panic', 'paralysis', 'frenzy'] as const) {
      const resolved = run('stress-response', pendingResponse(), { response })
      t.equal(resolved.sheet.stressed?.response, response, `${response} recorded`)
      t.same(resolved.pending, [], 'nothing left pending')
    }
    t.same(
      [
        failure('stress-response', {}, { response: 'panic' }).code,
        failure('stress-response', {}, { response: 'panic' }).kind,
      ],
      ['NOTHING_PENDING', 'conflict'],
      'not stressed: 409',
    )
    const chosen = run('stress-response', pendingResponse(), { response: 'panic' }).sheet
    t.equal(failure('stress-response', chosen, { response: 'frenzy' }).code, 'NOTHING_PENDING', 'already chosen: 409')
    t.equal(
      failure('stress-response', pendingResponse(), { response: 'cry' }).pointer,
      '/request/response',
      'unknown response: 422',
    )
  },
)

t.test('Record disorder: the GM names the pending disorder', async (t) => {
  const resolved = run('record-disorder', pendingDisorder(), { name: 'Depersonalisation' })
  t.same(
    resolved.sheet.disorders,
    [{ name: 'Depersonalisation', meter: 'self', cause: 'The mirror', check: 1 }],
    'named, cause kept',
  )
  t.equal(resolved.outcome.added, false, 'named, not added')
  t.same(resolved.pending, [], 'nothing pending')
  t.equal(
    failure('record-disorder', pendingDisorder(), { name: 'X', meter: 'violence' }).pointer,
    '/request/meter',
    'another meter while one is pending: 422',
  )
})

t.test('Record disorder: with nothing pending the GM may add one by giving its meter, else 409', async (t) => {
  const added = run('record-disorder', {}, { name: 'Nyctophobia', meter: 'helplessness' })
  t.same(added.sheet.disorders, [{ name: 'Nyctophobia', meter: 'helplessness', cause: null, check: null }], 'added')
  t.equal(added.outcome.added, true, 'outcome says added')
  t.same(
    [failure('record-disorder', {}, { name: 'X' }).code, failure('record-disorder', {}, { name: 'X' }).kind],
    ['NOTHING_PENDING', 'conflict'],
    'no meter and nothing pending: 409',
  )
})

t.test(
  'Clear stressed: "must pursue the chosen response until the source of the threat has been removed"',
  async (t) => {
    const stressed = run('stress-response', pendingResponse(), { response: 'panic' }).sheet
    const resolved = run('clear-stressed', stressed, { reason: 'The thing went back into the wall' })
    t.equal(resolved.sheet.stressed, null, 'no longer stressed')
    t.same(
      resolved.outcome,
      { cleared: { meter: 'self', response: 'panic', cause: null }, reason: 'The thing went back into the wall' },
      'outcome',
    )
    t.equal(
      run('stress-check', resolved.sheet, { meter: 'violence', rank: 3 }, [10]).outcome.result,
      'passed',
      'checks are rolled again',
    )
    t.same(
      [failure('clear-stressed', {}, {}).code, failure('clear-stressed', {}, {}).kind],
      ['NOT_STRESSED', 'conflict'],
      'not stressed: 409',
    )
  },
)

t.test('New session: flip-flops come back and the latest check is closed', async (t) => {
  const used = { passions: { fear: { text: 'x', flipFlopUsed: true }, rage: { text: 'y' }, noble: null } }
  const resolved = run('new-session', used, {})
  t.same(resolved.outcome, { flipFlopsRestored: ['fear'], lastCheckClosed: false }, 'fear restored')
  t.equal(resolved.sheet.passions.fear?.flipFlopUsed, false, 'fear may flip-flop again')
})

t.test('Ongoing treatment: removes failed or hardened notches, or a disorder, "with a reason recorded"', async (t) => {
  const sheet = {
    meters: meters(1, { self: { hardened: 3, failed: 4 } }),
    disorders: [{ name: 'Insomnia', meter: 'self' }],
  }
  const failedOff = run('ongoing-treatment', sheet, { meter: 'self', failed: 2, reason: 'Three months of CBT' })
  t.same(failedOff.sheet.meters.self, { hardened: 3, failed: 2 }, 'failed 4 → 2')
  t.same(failedOff.outcome.failed, { before: 4, after: 2 }, 'outcome notches')
  t.equal(failedOff.outcome.reason, 'Three months of CBT', 'reason recorded')
  const hardenedOff = run('ongoing-treatment', sheet, { meter: 'self', hardened: 2, reason: 'Retreat' })
  t.equal(hardenedOff.sheet.abilities.knowledge, 60, 'abilities follow: Knowledge back to 60')
  const cured = run('ongoing-treatment', sheet, { disorder: 'Insomnia', reason: 'Sleep clinic' })
  t.same(cured.sheet.disorders, [], 'disorder cured')
  t.equal(cured.outcome.disorderRemoved?.name, 'Insomnia', 'outcome names it')
  t.equal(failure('ongoing-treatment', sheet, { reason: 'x' }).code, 'NOTHING_TO_TREAT', 'nothing to remove: 422')
  t.equal(
    failure('ongoing-treatment', sheet, { failed: 1, reason: 'x' }).pointer,
    '/request/meter',
    'notches need a meter',
  )
  t.equal(
    failure('ongoing-treatment', sheet, { meter: 'self', failed: 5, reason: 'x' }).pointer,
    '/request/failed',
    'cannot remove more than there are',
  )
  t.equal(
    failure('ongoing-treatment', sheet, { disorder: 'Gout', reason: 'x' }).pointer,
    '/request/disorder',
    'unknown disorder',
  )
  t.equal(
    failure('ongoing-treatment', sheet, { meter: 'self', failed: 1 }).pointer,
    '/request/reason',
    'the reason is required',
  )
})

t.test('Burn-out ends "when therapy brings the gauge back under both limits"', async (t) => {
  const burned = { meters: meters(5) }
  const below = run('ongoing-treatment', burned, { meter: 'violence', hardened: 1, reason: 'Long therapy' })
  t.same(below.outcome.burnedOut, { before: true, after: false }, '25 → 24: no longer burned out')
  const twoFull = { meters: meters(0, { self: { hardened: 9 }, violence: { hardened: 9 } }) }
  const stillOne = run('ongoing-treatment', twoFull, { meter: 'self', hardened: 1, reason: 'Long therapy' })
  t.same(stillOne.outcome.burnedOut, { before: true, after: false }, 'one full meter left: no longer burned out')
})
