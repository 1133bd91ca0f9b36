import { nameIndex } from '../names.js'
import type { ConditionName, TraumaEffect, TraumaRow, TraumaRowId } from './schemas.js'

const D4 = { count: 1, sides: 4 } as const
const D6 = { count: 1, sides: 6 } as const
const D8 = { count: 1, sides: 8 } as const
const D12 = { count: 1, sides: 12 } as const
const TWO_D6 = { count: 2, sides: 6 } as const

const scar = { scars: 1 } as const

const anxiety = (
  id: 'performance-anxiety' | 'social-anxiety' | 'spacers-anxiety',
  name: string,
  situation: 'combat' | 'social' | 'spacing',
): TraumaEffect => ({
  lastingTrauma: {
    id,
    name,
    severity: 80,
    restHeals: false,
    healedBy: 'socialise-ritual',
    anxietyAtStartOf: { situation, dice: D6 },
  },
})

/** Spellings a GM is likely to type beside the table's own, by row id. */
const ALIASES: Partial<Record<TraumaRowId, readonly string[]>> = {
  demoralized: ['Demoralised'],
  'over-stimulated': ['Overstimulated'],
  'heart-palpatations': ['Heart Palpitations'],
  'spacers-anxiety': ['Spacer’s Anxiety'],
  psychosis: ['Pyschosis'],
}

function row(
  id: TraumaRowId,
  name: string,
  min: number | null,
  max: number | null,
  label: string,
  effect: TraumaEffect,
): TraumaRow {
  return { id, name, aliases: [...(ALIASES[id] ?? [])], min, max, countsAsTrauma: id !== 'unharmed', label, effect }
}

/** The trauma table, lowest row first. Upgrades move down this list, downgrades up it. */
export const TRAUMA_TABLE: readonly TraumaRow[] = [
  row('unharmed', 'Unharmed', null, 0, 'Shrugged off: no effect, and it is not a trauma this encounter.', {}),
  row('demoralized', 'Demoralized', 1, 5, 'Morale drops a step; at Neutral or below, unspent Priority is lost.', {
    morale: { downgrade: 1, loseUnspentPriorityAtNeutralOrLower: true },
  }),
  row('hazed', 'Hazed', 6, 10, 'The next check is made at a disadvantage.', {
    conditions: [{ name: 'Hazed', duration: 'next-check' }],
  }),
  row('fazed', 'Fazed', 11, 15, 'The next attack is made at a disadvantage.', {
    conditions: [{ name: 'Fazed', duration: 'next-attack' }],
  }),
  row('dazed', 'Dazed', 16, 20, 'The next save is made at a disadvantage.', {
    conditions: [{ name: 'Dazed', duration: 'next-save' }],
  }),
  row('headache', 'Headache', 21, 25, 'Lose D4 health.', {
    healthLoss: { dice: D4, exploding: false, woundPerDieRolled: false },
  }),
  row('fragility', 'Fragility', 26, 30, 'Fortitude saves at a disadvantage for the rest of the scene.', {
    saveDisadvantage: { save: 'fortitude', until: 'end-of-scene' },
  }),
  row('hesitation', 'Hesitation', 31, 35, 'Reflex saves at a disadvantage for the rest of the scene.', {
    saveDisadvantage: { save: 'reflex', until: 'end-of-scene' },
  }),
  row('agreeable', 'Agreeable', 36, 40, 'Will saves at a disadvantage for the rest of the scene.', {
    saveDisadvantage: { save: 'will', until: 'end-of-scene' },
  }),
  row('distracted', 'Distracted', 41, 45, 'Insight saves at a disadvantage for the rest of the scene.', {
    saveDisadvantage: { save: 'insight', until: 'end-of-scene' },
  }),
  row('migraine', 'Migraine', 46, 50, 'Lose D8 health.', {
    healthLoss: { dice: D8, exploding: false, woundPerDieRolled: false },
  }),
  row('flapped', 'Flapped', 51, 55, 'Hazed until the next rest.', {
    conditions: [{ name: 'Hazed', duration: 'next-rest' }],
  }),
  row('rocked', 'Rocked', 56, 60, 'Fazed until the next rest.', {
    conditions: [{ name: 'Fazed', duration: 'next-rest' }],
  }),
  row('depleted', 'Depleted', 61, 65, 'Dazed until the next rest.', {
    conditions: [{ name: 'Dazed', duration: 'next-rest' }],
  }),
  row(
    'over-stimulated',
    'Over-Stimulated',
    66,
    70,
    'Lasting trauma (30): anything but Simple actions and checks is Tiring.',
    {
      lastingTrauma: {
        id: 'over-stimulated',
        name: 'Over-Stimulated',
        severity: 30,
        restHeals: true,
        healedBy: 'rest',
        tiring: 'non-simple-actions-and-checks',
      },
    },
  ),
  row('heart-palpatations', 'Heart Palpatations', 71, 75, 'Lose D12 health.', {
    healthLoss: { dice: D12, exploding: false, woundPerDieRolled: false },
  }),
  row(
    'performance-anxiety',
    'Performance Anxiety',
    76,
    80,
    'Lasting trauma (80): D6 Anxiety whenever combat starts; only socialising eases it.',
    anxiety('performance-anxiety', 'Performance Anxiety', 'combat'),
  ),
  row(
    'social-anxiety',
    'Social Anxiety',
    81,
    85,
    'Lasting trauma (80): D6 Anxiety whenever a social situation starts; only socialising eases it.',
    anxiety('social-anxiety', 'Social Anxiety', 'social'),
  ),
  row(
    'spacers-anxiety',
    'Spacers Anxiety',
    86,
    90,
    'Lasting trauma (80): D6 Anxiety whenever a spacing situation starts; only socialising eases it.',
    anxiety('spacers-anxiety', 'Spacers Anxiety', 'spacing'),
  ),
  row('sleepless-night', 'Sleepless Night', 91, 95, 'The next rest does nothing.', { sleeplessNight: true }),
  row('dramatic-stress', 'Dramatic Stress', 96, 99, 'Take a scar.', { ...scar }),
  row('hurtful-experience', 'Hurtful Experience', 100, 100, 'Gain 1 experience and a wound.', {
    experience: { fixed: 1, halfAsWounds: false },
    wounds: 1,
  }),
  row(
    'cyberware-feedback',
    'Cyberware Feedback',
    101,
    105,
    'All cyberware, passive too, is Tiring until the next rest; take a scar.',
    {
      conditions: [{ name: 'Cyberware Feedback', duration: 'next-rest' }],
      ...scar,
    },
  ),
  row('afraid', 'Afraid', 106, 110, 'Spend the next turn getting away; take a scar.', {
    behaviour: { behaviour: 'flee', duration: 'next-turn' },
    ...scar,
  }),
  row(
    'temporary-hysteria',
    'Temporary Hysteria',
    111,
    115,
    'Spend the next turn attacking the nearest entity; take a scar.',
    {
      behaviour: { behaviour: 'attack-nearest', duration: 'next-turn' },
      ...scar,
    },
  ),
  row('skin-crawling', 'Skin Crawling', 116, 120, 'Spend the next turn throwing off equipped items; take a scar.', {
    behaviour: { behaviour: 'discard-equipped-items', duration: 'next-turn' },
    ...scar,
  }),
  row(
    'neuro-astral-feedback',
    'Neuro-Astral Feedback',
    121,
    125,
    'Miscast now, and miscast at a disadvantage until the next rest.',
    {
      miscast: true,
      conditions: [{ name: 'Neuro-Astral Feedback', duration: 'next-rest' }],
    },
  ),
  row('sickened', 'Sickened', 126, 130, 'Gain 2D6 instances of Nauseated; take a scar.', {
    instances: { condition: 'Nauseated', dice: TWO_D6 },
    ...scar,
  }),
  row(
    'insomnia',
    'Insomnia',
    131,
    135,
    'Until the next cycle, rests recover half and do not count as rests elsewhere.',
    {
      insomnia: { until: 'next-cycle', restRecovery: 'half-rounded-down', restsCountForOtherRules: false },
    },
  ),
  row('terrified', 'Terrified', 136, 140, 'Flee for the rest of the encounter; take a scar.', {
    behaviour: { behaviour: 'flee', duration: 'encounter' },
    ...scar,
  }),
  row(
    'hysteria',
    'Hysteria',
    141,
    145,
    'Attack the nearest entity every turn for the rest of the encounter; take a scar.',
    {
      behaviour: { behaviour: 'attack-nearest', duration: 'encounter' },
      ...scar,
    },
  ),
  row('heart-attack', 'Heart Attack', 146, 149, 'Lose exploding D6 health, and a wound for every die rolled.', {
    healthLoss: { dice: D6, exploding: true, woundPerDieRolled: true },
  }),
  row(
    'painful-experience',
    'Painful Experience',
    150,
    150,
    'Gain D6 experience, and half of it (at least 1) as wounds.',
    {
      experience: { dice: D6, halfAsWounds: true },
    },
  ),
  row('psychosis', 'Psychosis', 151, 199, 'Gain the Psychosis condition.', {
    conditions: [{ name: 'Psychosis', duration: 'permanent' }],
  }),
  row('fractured-spirit', 'Fractured Spirit', 200, null, 'Gain the Fractured Spirit condition.', {
    conditions: [{ name: 'Fractured Spirit', duration: 'permanent' }],
  }),
]

export const LAST_ROW = TRAUMA_TABLE.length - 1

/** What each condition a trauma can give does, in our own words. */
export const CONDITIONS: Record<ConditionName | 'Nauseated' | 'Anxiety', string> = {
  Hazed: 'Checks are made at a disadvantage (upgrading an existing one).',
  Fazed: 'Attacks are made at a disadvantage (upgrading an existing one).',
  Dazed: 'Saves are made at a disadvantage (upgrading an existing one).',
  'Cyberware Feedback': 'Using any cyberware, passive cyberware included, is done under the Tiring trait.',
  'Neuro-Astral Feedback': 'Any miscast is suffered at a disadvantage.',
  Psychosis: 'Defined by the rulebook’s conditions chapter.',
  'Fractured Spirit': 'Defined by the rulebook’s conditions chapter.',
  Nauseated: 'Gained in instances; defined by the rulebook’s conditions chapter.',
  Anxiety: 'Gained in instances; defined by the rulebook’s conditions chapter.',
}

export function rowIndex(id: TraumaRowId): number {
  return TRAUMA_TABLE.findIndex((row) => row.id === id)
}

export function rowAt(index: number): TraumaRow {
  const found = TRAUMA_TABLE[index]
  if (found === undefined) throw new RangeError(`no trauma row at index ${index}`)
  return found
}

export function rowById(id: TraumaRowId): TraumaRow {
  return rowAt(rowIndex(id))
}

/** The row whose band holds the total; the ends are open. */
export function rowIndexForTotal(total: number): number {
  const index = TRAUMA_TABLE.findIndex(
    (row) => (row.min === null || total >= row.min) && (row.max === null || total <= row.max),
  )
  return index
}

const rowNames = nameIndex(TRAUMA_TABLE.map((entry) => ({ ...entry, aliases: [entry.name, ...entry.aliases] })))

/** The row an id, name or alias names, whatever the case or spacing. */
export function findRow(name: string): TraumaRow | undefined {
  return rowNames.find(name)
}

/** The rows whose id or names come closest to `name`, for a "did you mean". */
export function closestRows(name: string): string[] {
  return rowNames.closest(name)
}
