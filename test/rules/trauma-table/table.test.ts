import t from 'tap'
import { TRAUMA_TABLE } from '../../../src/rules/trauma-table/table.js'
import { rowForTotal, run, sheetOf, toTotal, type TraumaTableSheet } from './helpers.js'

// Written from the rules text, independently of the table data under test.
const BANDS: [id: string, name: string, min: number | null, max: number | null][] = [
  ['unharmed', 'Unharmed', null, 0],
  ['demoralized', 'Demoralized', 1, 5],
  ['hazed', 'Hazed', 6, 10],
  ['fazed', 'Fazed', 11, 15],
  ['dazed', 'Dazed', 16, 20],
  ['headache', 'Headache', 21, 25],
  ['fragility', 'Fragility', 26, 30],
  ['hesitation', 'Hesitation', 31, 35],
  ['agreeable', 'Agreeable', 36, 40],
  ['distracted', 'Distracted', 41, 45],
  ['migraine', 'Migraine', 46, 50],
  ['flapped', 'Flapped', 51, 55],
  ['rocked', 'Rocked', 56, 60],
  ['depleted', 'Depleted', 61, 65],
  ['over-stimulated', 'Over-Stimulated', 66, 70],
  ['heart-palpatations', 'Heart Palpatations', 71, 75],
  ['performance-anxiety', 'Performance Anxiety', 76, 80],
  ['social-anxiety', 'Social Anxiety', 81, 85],
  ['spacers-anxiety', 'Spacers Anxiety', 86, 90],
  ['sleepless-night', 'Sleepless Night', 91, 95],
  ['dramatic-stress', 'Dramatic Stress', 96, 99],
  ['hurtful-experience', 'Hurtful Experience', 100, 100],
  ['cyberware-feedback', 'Cyberware Feedback', 101, 105],
  ['afraid', 'Afraid', 106, 110],
  ['temporary-hysteria', 'Temporary Hysteria', 111, 115],
  ['skin-crawling', 'Skin Crawling', 116, 120],
  ['neuro-astral-feedback', 'Neuro-Astral Feedback', 121, 125],
  ['sickened', 'Sickened', 126, 130],
  ['insomnia', 'Insomnia', 131, 135],
  ['terrified', 'Terrified', 136, 140],
  ['hysteria', 'Hysteria', 141, 145],
  ['heart-attack', 'Heart Attack', 146, 149],
  ['painful-experience', 'Painful Experience', 150, 150],
  ['psychosis', 'Psychosis', 151, 199],
  ['fractured-spirit', 'Fractured Spirit', 200, null],
]

type Expectation = { faces: number[]; sides: number[]; sheet: Partial<TraumaTableSheet>; miscast?: boolean }

// What accepting each trauma does to a fresh sheet, given the effect dice `faces`.
const ACCEPTED: Record<string, Expectation> = {
  demoralized: { faces: [], sides: [], sheet: { moraleStepsLost: 1 } },
  hazed: { faces: [], sides: [], sheet: { conditions: [{ name: 'Hazed', duration: 'next-check', source: 'hazed' }] } },
  fazed: { faces: [], sides: [], sheet: { conditions: [{ name: 'Fazed', duration: 'next-attack', source: 'fazed' }] } },
  dazed: { faces: [], sides: [], sheet: { conditions: [{ name: 'Dazed', duration: 'next-save', source: 'dazed' }] } },
  headache: { faces: [3], sides: [4], sheet: { healthLost: 3 } },
  fragility: {
    faces: [],
    sides: [],
    sheet: { saveDisadvantages: [{ save: 'fortitude', until: 'end-of-scene', source: 'fragility' }] },
  },
  hesitation: {
    faces: [],
    sides: [],
    sheet: { saveDisadvantages: [{ save: 'reflex', until: 'end-of-scene', source: 'hesitation' }] },
  },
  agreeable: {
    faces: [],
    sides: [],
    sheet: { saveDisadvantages: [{ save: 'will', until: 'end-of-scene', source: 'agreeable' }] },
  },
  distracted: {
    faces: [],
    sides: [],
    sheet: { saveDisadvantages: [{ save: 'insight', until: 'end-of-scene', source: 'distracted' }] },
  },
  migraine: { faces: [8], sides: [8], sheet: { healthLost: 8 } },
  flapped: {
    faces: [],
    sides: [],
    sheet: { conditions: [{ name: 'Hazed', duration: 'next-rest', source: 'flapped' }] },
  },
  rocked: { faces: [], sides: [], sheet: { conditions: [{ name: 'Fazed', duration: 'next-rest', source: 'rocked' }] } },
  depleted: {
    faces: [],
    sides: [],
    sheet: { conditions: [{ name: 'Dazed', duration: 'next-rest', source: 'depleted' }] },
  },
  'over-stimulated': {
    faces: [],
    sides: [],
    sheet: { lastingTraumas: [{ id: 'over-stimulated', name: 'Over-Stimulated', severity: 30, restHeals: true }] },
  },
  'heart-palpatations': { faces: [11], sides: [12], sheet: { healthLost: 11 } },
  'performance-anxiety': {
    faces: [],
    sides: [],
    sheet: {
      lastingTraumas: [{ id: 'performance-anxiety', name: 'Performance Anxiety', severity: 80, restHeals: false }],
    },
  },
  'social-anxiety': {
    faces: [],
    sides: [],
    sheet: { lastingTraumas: [{ id: 'social-anxiety', name: 'Social Anxiety', severity: 80, restHeals: false }] },
  },
  'spacers-anxiety': {
    faces: [],
    sides: [],
    sheet: { lastingTraumas: [{ id: 'spacers-anxiety', name: 'Spacers Anxiety', severity: 80, restHeals: false }] },
  },
  'sleepless-night': { faces: [], sides: [], sheet: { sleeplessNight: true } },
  'dramatic-stress': { faces: [], sides: [], sheet: { scars: 1 } },
  'hurtful-experience': { faces: [], sides: [], sheet: { experience: 1, wounds: 1 } },
  'cyberware-feedback': {
    faces: [],
    sides: [],
    sheet: {
      scars: 1,
      conditions: [{ name: 'Cyberware Feedback', duration: 'next-rest', source: 'cyberware-feedback' }],
    },
  },
  afraid: {
    faces: [],
    sides: [],
    sheet: { scars: 1, behaviours: [{ behaviour: 'flee', duration: 'next-turn', source: 'afraid' }] },
  },
  'temporary-hysteria': {
    faces: [],
    sides: [],
    sheet: {
      scars: 1,
      behaviours: [{ behaviour: 'attack-nearest', duration: 'next-turn', source: 'temporary-hysteria' }],
    },
  },
  'skin-crawling': {
    faces: [],
    sides: [],
    sheet: {
      scars: 1,
      behaviours: [{ behaviour: 'discard-equipped-items', duration: 'next-turn', source: 'skin-crawling' }],
    },
  },
  'neuro-astral-feedback': {
    faces: [],
    sides: [],
    miscast: true,
    sheet: { conditions: [{ name: 'Neuro-Astral Feedback', duration: 'next-rest', source: 'neuro-astral-feedback' }] },
  },
  sickened: { faces: [3, 4], sides: [6, 6], sheet: { scars: 1, nauseatedInstances: 7 } },
  insomnia: { faces: [], sides: [], sheet: { insomnia: true } },
  terrified: {
    faces: [],
    sides: [],
    sheet: { scars: 1, behaviours: [{ behaviour: 'flee', duration: 'encounter', source: 'terrified' }] },
  },
  hysteria: {
    faces: [],
    sides: [],
    sheet: { scars: 1, behaviours: [{ behaviour: 'attack-nearest', duration: 'encounter', source: 'hysteria' }] },
  },
  'heart-attack': { faces: [6, 6, 2], sides: [6, 6, 6], sheet: { healthLost: 14, wounds: 3 } },
  'painful-experience': { faces: [5], sides: [6], sheet: { experience: 5, wounds: 2 } },
  psychosis: {
    faces: [],
    sides: [],
    sheet: { conditions: [{ name: 'Psychosis', duration: 'permanent', source: 'psychosis' }] },
  },
  'fractured-spirit': {
    faces: [],
    sides: [],
    sheet: { conditions: [{ name: 'Fractured Spirit', duration: 'permanent', source: 'fractured-spirit' }] },
  },
}

t.test('The table holds every row of the rules text, in order, with its name and band', async (t) => {
  t.same(
    TRAUMA_TABLE.map((row) => [row.id, row.name, row.min, row.max]),
    BANDS,
    'ids, names (as printed) and bands match the rules text',
  )
  for (const row of TRAUMA_TABLE) t.ok(row.label.length > 0 && row.label.length <= 120, `${row.name} has a short label`)
})

for (const [index, [id, name, min, max]] of BANDS.entries()) {
  const band = min === null ? `${max} or lower` : max === null ? `${min}+` : min === max ? `${min}` : `${min}–${max}`
  t.test(`Trauma table row "${name}" (${band}): found by its total, and its effect applies on accept`, async (t) => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
    const edges = [min ?? -40, max ?? 350, min ?? (max as number), max ?? (min as number)]
    for (const total of edges) t.equal(rowForTotal(total), id, `a total of ${total} is ${name}`)
    if (min !== null) t.not(rowForTotal(min - 1), id, `${min - 1} is below ${name}`)
    if (max !== null) t.not(rowForTotal(max + 1), id, `${max + 1} is above ${name}`)
    t.equal(
      index,
      TRAUMA_TABLE.findIndex((row) => row.id === id),
      `${name} is row ${index}`,
    )

    const { face, modifier } = toTotal(min ?? 0)
    if (id === 'unharmed') {
      const result = run('trauma-roll', {}, { modifier, response: 'accept' }, [face])
      t.same(result.sheet, sheetOf(), 'Unharmed changes nothing on the sheet')
      t.equal((result.outcome as { status: string }).status, 'unharmed', 'and needs no decision')
      return
    }
    const expected = ACCEPTED[id]
    if (!expected) throw new Error(`no expectation for ${id}`)
    const result = run('trauma-roll', {}, { modifier, response: 'accept' }, [face, ...expected.faces])
    t.same(
      result.sheet,
      sheetOf({ ...expected.sheet, encounterTraumas: [id as 'hazed'] }),
      `accepting ${name} changes exactly this`,
    )
    t.same(
      result.dice.map((die) => die.sides),
      [100, ...expected.sides],
      `${name} rolls d100 then its effect dice`,
    )
    t.equal(
      (result.outcome as { effects: { miscast: boolean } }).effects.miscast,
      expected.miscast === true,
      'miscast recorded',
    )
  })
}

t.test('Painful Experience: "Gain half of this Result as Wounds, rounded down to a minimum of 1"', async (t) => {
  for (const [experience, wounds] of [
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 2],
    [5, 2],
    [6, 3],
  ] as const) {
    const result = run('trauma-roll', {}, { modifier: 100, response: 'accept' }, [50, experience])
    t.equal(result.sheet.experience, experience, `D6 ${experience} gives ${experience} experience`)
    t.equal(result.sheet.wounds, wounds, `and ${wounds} wound(s)`)
  }
})

t.test(
  'Heart Attack: "D6 Health Loss under the effects of the Exploding Property. Gain a Wound for each ... Die rolled"',
  async (t) => {
    const one = run('trauma-roll', {}, { modifier: 97, response: 'accept' }, [50, 4])
    t.same([one.sheet.healthLost, one.sheet.wounds], [4, 1], 'one die: 4 health, 1 wound')
    const three = run('trauma-roll', {}, { modifier: 97, response: 'accept' }, [50, 6, 6, 1])
    t.same([three.sheet.healthLost, three.sheet.wounds], [13, 3], 'two sixes explode: 13 health, 3 wounds')
    t.same(
      three.dice.map((die) => die.purpose),
      ['trauma', 'health-loss', 'health-loss', 'health-loss'],
      'effect dice are recorded with their purpose',
    )
  },
)
