import t from 'tap'
import type { TraumaSettlement } from '../../../src/rules/trauma-table/schemas.js'
import { run, sheetOf } from './helpers.js'

const outcomeOf = (result: { outcome: unknown }) => result.outcome as TraumaSettlement

t.test(
  'Worked example: Jim the Enforcer rolls 65 with 1 trauma this encounter and 1 scar, and suffers Heart Palpatations',
  async (t) => {
    const jim = { scars: 1, encounterTraumas: ['hazed'] }
    const rolled = run('trauma-roll', jim, {}, [65])
    const { roll } = outcomeOf(rolled)
    t.equal(roll.total, 65, 'Jim rolls a Result of 65')
    t.equal(roll.baseRow, 'depleted', 'a Total of 65 would mean Depleted')
    t.same(
      roll.shifts.map((shift) => [shift.cause, shift.steps]),
      [
        ['scars', 1],
        ['previous-trauma', 1],
      ],
      'upgraded once for the scar and once for the earlier trauma',
    )
    t.equal(roll.finalRow, 'heart-palpatations', 'upgraded twice: Heart Palpatations')
    t.equal(outcomeOf(rolled).trauma.name, 'Heart Palpatations', 'spelled as in the text')
    t.same(rolled.pending.map((decision) => decision.action)[0], 'trauma-response', 'Jim now decides')
    t.same(rolled.sheet.pendingTrauma, roll, 'the decision lives on the sheet')

    const accepted = run('trauma-response', rolled.sheet, { response: 'accept' }, [9])
    t.equal(outcomeOf(accepted).status, 'accepted', 'Jim accepts the Trauma')
    t.same(outcomeOf(accepted).effects?.healthLoss, { faces: [9], amount: 9 }, 'D12 health loss rolled: 9')
    t.same(
      accepted.sheet,
      sheetOf({ scars: 1, healthLost: 9, encounterTraumas: ['hazed', 'heart-palpatations'] }),
      'Jim loses 9 health and Heart Palpatations joins his encounter',
    )
    t.same(
      accepted.dice.map((die) => [die.sides, die.purpose]),
      [[12, 'health-loss']],
      'the D12 is recorded',
    )
  },
)

t.test(
  '"You now may either accept the Trauma and its effects or ... use Abilities": without a response the roll waits',
  async (t) => {
    const rolled = run('trauma-roll', {}, { modifier: 0 }, [22])
    t.equal(outcomeOf(rolled).status, 'pending', 'status pending')
    t.equal(outcomeOf(rolled).effects, null, 'nothing applied yet')
    t.equal(rolled.sheet.healthLost, 0, 'no health lost yet')
    t.same(rolled.sheet.encounterTraumas, [], 'not yet suffered')
    t.match(rolled.pending, [{ action: 'trauma-response', prompt: /Headache/ }], 'prompt names the trauma')
    t.equal(
      rolled.summary,
      "Trauma: d100 22 = 22 → Headache; waiting for the player's answer: accept it or answer with an ability",
      'the summary says what the player decides in words, not by the action that settles it',
    )
  },
)

t.test('an accepted trauma says how long its conditions and compelled behaviours last in words', async (t) => {
  const flapped = run('trauma-roll', {}, { response: 'accept' }, [53])
  t.equal(flapped.summary, 'Trauma: d100 53 = 53 → Flapped; Flapped accepted: Hazed (until the next rest)', 'Flapped')
  const afraid = run('trauma-roll', {}, { modifier: 10, response: 'accept' }, [96])
  t.match(afraid.summary, /Afraid accepted: 1 scar, compelled to flee \(on the next turn\)$/, 'Afraid')
  const terrified = run('trauma-roll', {}, { modifier: 40, response: 'accept' }, [98])
  t.match(
    terrified.summary,
    /Terrified accepted: 1 scar, compelled to flee \(until the end of the encounter\)$/,
    'Terrified',
  )
})

t.test('While a trauma waits, another trauma roll is a conflict naming trauma-response', async (t) => {
  const rolled = run('trauma-roll', {}, {}, [22])
  t.throws(
    () => run('trauma-roll', rolled.sheet, {}, [50]),
    { code: 'TRAUMA_PENDING', kind: 'conflict', message: /trauma-response/, pointer: '/sheet/pendingTrauma' },
    '409 that says what to settle',
  )
})

t.test('trauma-response with nothing pending is a conflict', async (t) => {
  t.throws(
    () => run('trauma-response', {}, { response: 'accept' }, []),
    { code: 'NO_TRAUMA_PENDING', kind: 'conflict' },
    '409',
  )
})

t.test('Answering with an ability ("Not Today!") records it and applies none of the effects', async (t) => {
  const rolled = run('trauma-roll', { scars: 2 }, {}, [96])
  const answered = run('trauma-response', rolled.sheet, { response: { ability: 'Not Today!' } }, [])
  const outcome = outcomeOf(answered)
  t.equal(outcome.status, 'answered', 'status answered')
  t.same(outcome.response, { ability: 'Not Today!' }, 'the ability is recorded')
  t.equal(outcome.effects, null, 'no effects')
  t.equal(outcome.countsThisEncounter, false, 'does not count toward this encounter')
  t.same(answered.sheet, sheetOf({ scars: 2 }), 'sheet as before the roll, decision cleared')
  t.same(answered.dice, [], 'no effect dice rolled')
})

t.test(
  'An answered trauma is not suffered: "you Upgrade it for each previous Trauma you have suffered in the current Encounter" leaves it out',
  async (t) => {
    const answered = run('trauma-roll', {}, { response: { ability: 'Not Today!' } }, [8])
    t.same(answered.sheet.encounterTraumas, [], 'not listed this encounter')
    const next = run('trauma-roll', answered.sheet, {}, [8])
    const { roll } = outcomeOf(next)
    t.same(
      [roll.netShift, roll.repeats, roll.finalRow],
      [0, [], 'hazed'],
      'Hazed again is neither upgraded by it nor counted as already suffered',
    )
  },
)

t.test('A response in the request settles the roll in one action', async (t) => {
  const accepted = run('trauma-roll', {}, { response: 'accept' }, [47, 5])
  t.same(
    [outcomeOf(accepted).status, accepted.sheet.healthLost, accepted.pending],
    ['accepted', 5, []],
    'Migraine accepted at once',
  )
  t.same(accepted.sheet.encounterTraumas, ['migraine'], 'and counted this encounter')
  t.equal(accepted.sheet.pendingTrauma, null, 'nothing left pending')
  const answered = run('trauma-roll', {}, { response: { ability: 'Not Today!' } }, [47])
  t.same([outcomeOf(answered).status, answered.sheet.healthLost], ['answered', 0], 'answered at once')
})

t.test('Accepting a trauma makes it count as an earlier trauma for the next roll', async (t) => {
  const first = run('trauma-roll', {}, { response: 'accept' }, [8])
  const second = run('trauma-roll', first.sheet, {}, [8])
  const { roll } = outcomeOf(second)
  t.same(
    [roll.baseRow, roll.shiftedRow, roll.finalRow],
    ['hazed', 'fazed', 'fazed'],
    'Hazed again is upgraded to Fazed by the earlier trauma',
  )
})

t.test('Bad requests are refused with a pointer to the field', async (t) => {
  t.throws(
    () => run('trauma-roll', {}, { source: 'cursed' }, [1]),
    { code: 'REQUEST_INVALID', kind: 'invalid', pointer: /^\/request\/source/ },
    'unknown source',
  )
  t.throws(
    () => run('trauma-roll', {}, { modifier: 1.5 }, [1]),
    { code: 'REQUEST_INVALID', pointer: '/request/modifier' },
    'fractional modifier',
  )
  t.throws(
    () => run('trauma-roll', {}, { bonus: 1 }, [1]),
    { code: 'REQUEST_INVALID', pointer: '/request/bonus', message: /not a known field/ },
    'unknown field',
  )
  t.throws(() => run('trauma-response', {}, {}, []), { code: 'REQUEST_INVALID' }, 'response is required')
  t.throws(
    () => run('trauma-roll', {}, { upgrades: [{ steps: 1 }] }, [1]),
    { code: 'REQUEST_INVALID', pointer: /^\/request\/upgrades\/0/ },
    'an extra upgrade needs a reason',
  )
})

t.test('Provided dice must match the dice the trauma needs', async (t) => {
  t.throws(() => run('trauma-roll', {}, { response: 'accept' }, [22]), { code: 'DICE_COUNT' }, 'Headache needs its D4')
  t.throws(
    () => run('trauma-roll', {}, { response: 'accept' }, [22, 5]),
    { code: 'DICE_FACE_OUT_OF_RANGE' },
    'a D4 cannot show 5',
  )
  const pending = run('trauma-roll', {}, {}, [22, 3])
  t.same(
    [pending.dice.length, pending.unusedFaces],
    [1, [3]],
    'no effect dice while pending: a face sent for them is unused',
  )
})
