import t from 'tap'
import { failure, meters, passions, resists, run } from './helpers.js'

const character = { passions, identities: [resists('Soldier', 45, 'violence')] }
const failedCheck = (faces = [73], extra: Record<string, unknown> = {}) =>
  run('stress-check', character, { meter: 'violence', rank: 4, passion: 'fear', ...extra }, faces).sheet

t.test(
  'Passion re-roll: a new d100 replaces the check — a failure turned into a pass takes back the failed notch and the stressed state',
  async (t) => {
    const resolved = run('passion-reroll', failedCheck(), { passion: 'fear' }, [20])
    t.same(resolved.dice, [{ sides: 100, face: 20, purpose: 'reroll', source: 'provided' }], 'one d100 for the re-roll')
    t.same(resolved.sheet.meters.violence, { hardened: 2, failed: 0 }, 'failed notch undone, hardened notch marked')
    t.equal(resolved.sheet.stressed, null, 'no longer stressed')
    t.same(resolved.outcome.undone, { marked: 'failed', setStressed: true, trauma: false }, 'what was taken back')
    t.match(
      resolved.outcome,
      { originalFace: 73, originalTier: 'failure', check: { face: 20, tier: 'success', result: 'passed' } },
      'old and new roll',
    )
    t.match(
      resolved.sheet.lastCheck,
      {
        face: 20,
        result: 'passed',
        marked: 'hardened',
        changedBy: { action: 'passion-reroll', passion: 'fear', originalFace: 73 },
      },
      'the latest check now stands with the new roll',
    )
    t.equal(resolved.sheet.passions.fear?.flipFlopUsed, false, 'a re-roll does not use the flip-flop')
    t.equal(
      resolved.summary,
      'Fear passion re-rolled 73 (failure) → Violence 4 vs Soldier 45: rolled 20, success — hardened 1 → 2',
      'summary',
    )
  },
)

t.test(
  'Passion re-roll: a pass turned into a failure takes back the hardened notch and marks a failed one',
  async (t) => {
    const passed = failedCheck([12])
    const resolved = run('passion-reroll', passed, {}, [90])
    t.same(resolved.sheet.meters.violence, { hardened: 1, failed: 1 }, 'hardened undone, failed marked')
    t.equal(resolved.sheet.stressed?.response, 'pending', 'stressed, response pending')
    t.equal(resolved.outcome.passion, 'fear', 'defaults to the passion the check named')
    t.equal(resolved.pending.map((decision) => decision.action)[0], 'stress-response', 'pending response')
  },
)

t.test('Passion re-roll keeps a response already chosen when the new roll fails too', async (t) => {
  const chosen = run('stress-response', failedCheck(), { response: 'frenzy' }).sheet
  const resolved = run('passion-reroll', chosen, {}, [88])
  t.equal(resolved.sheet.stressed?.response, 'frenzy', 'still frenzy')
  t.equal(resolved.sheet.meters.violence.failed, 1, 'one failed notch, not two')
})

t.test('Passion re-roll undoes mental trauma when the fifth failed notch goes', async (t) => {
  const traumatised = run(
    'stress-check',
    { ...character, meters: meters(1, { violence: { failed: 4 } }) },
    { meter: 'violence', rank: 4, passion: 'rage', disorder: 'Hoplophobia' },
    [73],
  ).sheet
  t.equal(traumatised.disorders.length, 1, 'disorder recorded')
  const resolved = run('passion-reroll', traumatised, {}, [5])
  t.same(resolved.sheet.meters.violence, { hardened: 2, failed: 4 }, 'back to 4 failed, plus a hardened notch')
  t.same(resolved.sheet.disorders, [], 'the disorder is gone with the notch')
  const again = run('passion-reroll', traumatised, {}, [80])
  t.same(
    again.sheet.disorders.map((disorder) => disorder.name),
    ['Hoplophobia'],
    'failing again records the same named disorder once',
  )
})

t.test('Passion flip-flop: "swap the digits" (73 → 37), no die, once per passion per session', async (t) => {
  const resolved = run('passion-flip-flop', failedCheck([73]), { passion: 'fear' })
  t.same(resolved.dice, [], 'no die rolled')
  t.match(
    resolved.outcome,
    { originalFace: 73, check: { face: 37, tier: 'success', result: 'passed' } },
    '73 becomes 37 and passes against 45',
  )
  t.same(resolved.sheet.meters.violence, { hardened: 2, failed: 0 }, 'effects replaced')
  t.equal(resolved.sheet.passions.fear?.flipFlopUsed, true, 'fear has flip-flopped this session')

  const nextCheck = run('stress-check', resolved.sheet, { meter: 'violence', rank: 5, response: 'panic' }, [82]).sheet
  const used = failure('passion-flip-flop', nextCheck, { passion: 'fear' })
  t.same([used.code, used.kind], ['FLIP_FLOP_USED', 'conflict'], 'fear cannot flip-flop again this session (409)')
  t.match(used.message, /new-session/, 'the message says how it comes back')
  t.equal(run('passion-flip-flop', nextCheck, { passion: 'rage' }).outcome.check.face, 28, 'rage still can: 82 → 28')

  const renewed = run('new-session', nextCheck, {})
  t.equal(renewed.sheet.passions.fear?.flipFlopUsed, false, 'new session resets it')
  const afterSession = run(
    'stress-check',
    { ...renewed.sheet, stressed: null },
    { meter: 'violence', rank: 5 },
    [64],
  ).sheet
  t.equal(
    run('passion-flip-flop', afterSession, { passion: 'fear' }).outcome.check.face,
    46,
    'fear flip-flops again: 64 → 46',
  )
})

t.test('Flip-flop edge faces: 00 stays 00 (still a fumble), 10 becomes 01 (critical)', async (t) => {
  t.equal(run('passion-flip-flop', failedCheck([100]), {}).outcome.check.tier, 'fumble', '00 stays a fumble')
  t.equal(run('passion-flip-flop', failedCheck([10]), {}).outcome.check.tier, 'critical', '10 → 01 critical')
})

t.test(
  'Burned out: "cannot bring their passions into play to make re-rolls or flip-flop rolls" — 422 saying so',
  async (t) => {
    const burned = run(
      'stress-check',
      { ...character, meters: meters(5) },
      { meter: 'violence', rank: 6, passion: 'fear' },
      [90],
    ).sheet
    for (const action of ['passion-reroll', 'passion-flip-flop']) {
      const error = failure(action, burned, { passion: 'fear' }, [10])
      t.same([error.code, error.kind], ['BURNED_OUT', 'invalid'], `${action} refused (422)`)
      t.match(error.message, /burned out/, 'the message says burned out')
    }
    const twoFull = run(
      'stress-check',
      { ...character, meters: meters(0, { self: { hardened: 9 }, isolation: { hardened: 9 } }) },
      { meter: 'violence', rank: 4, passion: 'fear' },
      [90],
    ).sheet
    t.equal(failure('passion-reroll', twoFull, {}, [10]).code, 'BURNED_OUT', 'two full meters also refuse passions')
  },
)

t.test('Passions change only the latest check that was rolled', async (t) => {
  t.equal(failure('passion-reroll', character, { passion: 'fear' }).code, 'NO_STRESS_CHECK', 'no check yet (409)')
  const avoided = run(
    'stress-check',
    { ...character, meters: meters(4) },
    { meter: 'violence', rank: 3, passion: 'fear' },
  ).sheet
  const notRolled = failure('passion-reroll', avoided, {})
  t.same([notRolled.code, notRolled.kind], ['CHECK_NOT_ROLLED', 'conflict'], 'an avoided check cannot be re-rolled')
  const broken = run(
    'stress-check',
    { ...character, meters: meters(1, { violence: { failed: 5 } }) },
    { meter: 'violence', rank: 3, passion: 'fear' },
  ).sheet
  t.equal(
    failure('passion-flip-flop', broken, {}).code,
    'CHECK_NOT_ROLLED',
    'an automatic failure cannot be flip-flopped',
  )
})

t.test('Passion in play: the request names it (or the check did) and it must be on the sheet', async (t) => {
  const noPassionNamed = run('stress-check', character, { meter: 'violence', rank: 4 }, [73]).sheet
  const missing = failure('passion-reroll', noPassionNamed, {}, [10])
  t.same([missing.code, missing.pointer], ['NO_PASSION_IN_PLAY', '/request/passion'], 'no passion in play (422)')
  t.equal(
    run('passion-reroll', noPassionNamed, { passion: 'noble' }, [10]).outcome.passion,
    'noble',
    'named in the re-roll request',
  )
  const noRage = run('stress-check', { passions: { fear: passions.fear } }, { meter: 'violence', rank: 4 }, [73]).sheet
  t.same(
    failure('passion-reroll', noRage, { passion: 'rage' }, [10]).pointer,
    '/request/passion',
    'a passion not on the sheet is refused',
  )
})

t.test('A check is changed by a passion once: no re-roll of a re-roll or flip-flop', async (t) => {
  const rerolled = run('passion-reroll', failedCheck(), {}, [80]).sheet
  t.equal(failure('passion-reroll', rerolled, {}, [10]).code, 'CHECK_ALREADY_CHANGED', 'second re-roll refused')
  t.equal(
    failure('passion-flip-flop', rerolled, { passion: 'rage' }).code,
    'CHECK_ALREADY_CHANGED',
    'flip-flop after a re-roll refused',
  )
})

t.test('A new session or ongoing treatment closes the latest check to passions', async (t) => {
  const closed = run('new-session', failedCheck(), {}).sheet
  t.equal(failure('passion-reroll', closed, {}, [10]).code, 'CHECK_CLOSED', 'new session closes it')
  const treated = run('ongoing-treatment', failedCheck(), {
    meter: 'self',
    hardened: 1,
    reason: 'Weekly sessions',
  }).sheet
  t.equal(failure('passion-reroll', treated, {}, [10]).code, 'CHECK_CLOSED', 'ongoing treatment closes it')
})
