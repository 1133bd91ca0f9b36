import t from 'tap'
import type { TraumaRollRecord } from '../../../src/rules/trauma-table/schemas.js'
import { run } from './helpers.js'

function roll(sheet: unknown, request: Record<string, unknown>, face: number): TraumaRollRecord {
  return (run('trauma-roll', sheet, request, [face]).outcome as { roll: TraumaRollRecord }).roll
}

const brief = (record: TraumaRollRecord) => ({
  base: record.baseRow,
  net: record.netShift,
  final: record.finalRow,
  shifts: record.shifts.map((shift) => [shift.direction, shift.steps, shift.cause, shift.reason]),
})

t.test('Upgrade once "For each Scar a Character has"', async (t) => {
  const record = roll({ scars: 2 }, {}, 65)
  t.same(
    brief(record),
    { base: 'depleted', net: 2, final: 'heart-palpatations', shifts: [['upgrade', 2, 'scars', '2 scars']] },
    'two scars move Depleted two rows up',
  )
  t.equal(roll({ scars: 1 }, {}, 65).finalRow, 'over-stimulated', 'one scar moves one row')
})

t.test('Upgrade once "For each previous Trauma suffered in an Encounter"', async (t) => {
  const record = roll({ encounterTraumas: ['hazed', 'fazed'] }, {}, 65)
  t.same(
    brief(record),
    {
      base: 'depleted',
      net: 2,
      final: 'heart-palpatations',
      shifts: [
        ['upgrade', 1, 'previous-trauma', 'already suffered Hazed this encounter'],
        ['upgrade', 1, 'previous-trauma', 'already suffered Fazed this encounter'],
      ],
    },
    'each earlier trauma is one upgrade, named',
  )
})

for (const [source, steps, final] of [
  ['stressful', 1, 'over-stimulated'],
  ['traumatic', 2, 'heart-palpatations'],
  ['maddening', 3, 'performance-anxiety'],
] as const) {
  t.test(
    `Upgrade "${['once', 'twice', 'thrice'][steps - 1]}" when inflicted by something with the ${source} trait`,
    async (t) => {
      const record = roll({}, { source }, 65)
      t.equal(record.netShift, steps, `${source} upgrades ${steps}`)
      t.equal(record.finalRow, final, `Depleted becomes ${final}`)
      t.same(
        record.shifts.map((shift) => shift.cause),
        ['source-trait'],
        'recorded as the source trait',
      )
    },
  )
}

t.test('No source trait means no source upgrade', async (t) => {
  t.same(roll({}, { source: 'none' }, 65).shifts, [], 'nothing recorded')
})

for (const trait of ['composure', 'poise', 'stoic'] as const) {
  t.test(`Downgrade once "From the Composure, Poise and Stoic Traits": ${trait}`, async (t) => {
    const record = roll({ traits: { [trait]: true } }, {}, 65)
    t.equal(record.finalRow, 'rocked', 'Depleted becomes Rocked')
    t.same(
      brief(record).shifts,
      [['downgrade', 1, 'character-trait', trait[0]!.toUpperCase() + trait.slice(1)]],
      'recorded by trait name',
    )
  })
}

t.test('Composure, Poise and Stoic together downgrade three times', async (t) => {
  const record = roll({ traits: { composure: true, poise: true, stoic: true } }, {}, 65)
  t.equal(record.netShift, -3, 'three downgrades')
  t.equal(record.finalRow, 'migraine', 'Depleted becomes Migraine')
})

t.test('Callers may add upgrades and downgrades, each with its reason', async (t) => {
  const record = roll(
    {},
    { upgrades: [{ steps: 2, reason: 'Dangerous Property' }], downgrades: [{ reason: 'blessing' }] },
    65,
  )
  t.same(
    brief(record).shifts,
    [
      ['upgrade', 2, 'extra', 'Dangerous Property'],
      ['downgrade', 1, 'extra', 'blessing'],
    ],
    'each extra is recorded, steps default to 1',
  )
  t.equal(record.finalRow, 'over-stimulated', 'net one row up')
})

t.test('Upgrades and downgrades cancel: the shift is upgrades minus downgrades', async (t) => {
  const record = roll({ scars: 1, traits: { composure: true } }, {}, 65)
  t.equal(record.netShift, 0, 'one each way')
  t.equal(record.finalRow, 'depleted', 'row unchanged')
  t.equal(record.shifts.length, 2, 'both still recorded')
})

t.test('A shift moves whole rows: 96–99, 100, 146–149 and 150 are one step each', async (t) => {
  t.equal(
    roll({}, { upgrades: [{ reason: 'x' }] }, 96).finalRow,
    'hurtful-experience',
    'Dramatic Stress +1 is Hurtful Experience',
  )
  t.equal(
    roll({}, { upgrades: [{ steps: 2, reason: 'x' }] }, 96).finalRow,
    'cyberware-feedback',
    '+2 is Cyberware Feedback',
  )
  t.equal(
    roll({}, { modifier: 50, upgrades: [{ reason: 'x' }] }, 96).finalRow,
    'painful-experience',
    'Heart Attack +1 is Painful Experience',
  )
  t.equal(
    roll({}, { modifier: 50, upgrades: [{ steps: 2, reason: 'x' }] }, 96).finalRow,
    'psychosis',
    '+2 is Psychosis',
  )
  t.equal(roll({}, { upgrades: [{ reason: 'x' }] }, 1).finalRow, 'hazed', 'Demoralized +1 is Hazed, not 5 points')
})

t.test('Shifts are clamped at the top of the table', async (t) => {
  const record = roll({ scars: 3 }, { modifier: 100 }, 100)
  t.same(
    [record.baseRow, record.finalRow, record.clamped],
    ['fractured-spirit', 'fractured-spirit', 'top'],
    'Fractured Spirit stays',
  )
  const psychosis = roll({}, { modifier: 60, source: 'maddening' }, 100)
  t.same(
    [psychosis.baseRow, psychosis.finalRow, psychosis.clamped],
    ['psychosis', 'fractured-spirit', 'top'],
    'Psychosis +3 stops at Fractured Spirit',
  )
})

t.test('Shifts are clamped at the bottom of the table', async (t) => {
  const record = roll({ traits: { composure: true, poise: true, stoic: true } }, {}, 3)
  t.same(
    [record.baseRow, record.finalRow, record.clamped],
    ['demoralized', 'unharmed', 'bottom'],
    'Demoralized −3 stops at Unharmed',
  )
  t.equal(roll({}, {}, 3).clamped, null, 'no clamp without a shift')
})

t.test('"Should you suffer a Trauma you have already received in the current Encounter, Upgrade it"', async (t) => {
  const once = roll({ encounterTraumas: ['over-stimulated'] }, {}, 61)
  t.same(
    [once.shiftedRow, once.repeats, once.finalRow],
    ['over-stimulated', [{ from: 'over-stimulated', to: 'heart-palpatations' }], 'heart-palpatations'],
    'Depleted +1 lands on Over-Stimulated, already suffered, so Heart Palpatations',
  )
  const twice = roll({ encounterTraumas: ['over-stimulated', 'heart-palpatations'] }, {}, 58)
  t.same(
    [twice.shiftedRow, twice.repeats.length, twice.finalRow],
    ['over-stimulated', 2, 'performance-anxiety'],
    '"until you receive a Trauma you have not already suffered"',
  )
  t.same(roll({ encounterTraumas: ['migraine'] }, {}, 65).repeats, [], 'no repeat when the result is new')
})

t.test('The repeat upgrade stops at the last row', async (t) => {
  const record = roll({ encounterTraumas: ['fractured-spirit'] }, { modifier: 150 }, 60)
  t.same([record.finalRow, record.repeats], ['fractured-spirit', []], 'Fractured Spirit again, nowhere higher to go')
  const accepted = run(
    'trauma-roll',
    { encounterTraumas: ['fractured-spirit'] },
    { modifier: 150, response: 'accept' },
    [60],
  )
  t.same(accepted.sheet.encounterTraumas, ['fractured-spirit', 'fractured-spirit'], 'and it is suffered again')
})

t.test('Unharmed: "You do not increase your amount of Trauma suffered this Encounter"', async (t) => {
  const result = run('trauma-roll', { encounterTraumas: [] }, { modifier: -10 }, [10])
  t.equal((result.outcome as { status: string }).status, 'unharmed', 'a total of 0 is Unharmed')
  t.same(result.sheet.encounterTraumas, [], 'not added to the encounter')
  t.same(result.pending, [], 'nothing to decide')
  t.equal(result.sheet.pendingTrauma, null, 'nothing pending on the sheet')
  const next = roll(result.sheet, {}, 65)
  t.equal(next.finalRow, 'depleted', 'so the next trauma is not upgraded by it')
})

t.test('Unharmed is a row like any other for upgrades and downgrades', async (t) => {
  t.equal(roll({ scars: 1 }, { modifier: -30 }, 10).finalRow, 'demoralized', 'Unharmed +1 is Demoralized')
  t.equal(roll({ traits: { stoic: true } }, {}, 2).finalRow, 'unharmed', 'Demoralized −1 is Unharmed')
  t.throws(
    () => run('trauma-roll', { encounterTraumas: ['unharmed'] }, {}, [50]),
    { code: 'SHEET_INVALID' },
    'a sheet cannot list Unharmed as suffered',
  )
})

t.test('Total = d100 + modifier', async (t) => {
  const record = roll({}, { modifier: -7 }, 72)
  t.same([record.face, record.modifier, record.total, record.baseRow], [72, -7, 65, 'depleted'], 'total 65')
  t.equal(roll({}, {}, 72).modifier, 0, 'modifier defaults to 0')
})
