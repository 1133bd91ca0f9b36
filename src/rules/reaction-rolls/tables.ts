import type { Band, DiceClass, Emotion, Modifier, Pressure } from './schemas.js'

/** Faces of each dice class. */
export const DICE_SIDES = { d4: 4, d6: 6, d8: 8, d10: 10, d12: 12 } as const satisfies Record<DiceClass, number>

interface PressureRow {
  pressure: Pressure
  label: string
  description: string
  /** Results up to this value fail. */
  failureAtMost: number
  /** Results from this value succeed; anything between the two is retrievable. */
  successAtLeast: number
}

/** Failure up to half the pressure, success from the pressure itself, retrievable in between. */
const PRESSURES = [
  {
    pressure: 4,
    label: 'Standard',
    description: 'The event puts the character to the test, but they can cope with it.',
    failureAtMost: 2,
    successAtLeast: 4,
  },
  {
    pressure: 6,
    label: 'Intense',
    description: 'The event strains what the character is able to do.',
    failureAtMost: 3,
    successAtLeast: 6,
  },
  {
    pressure: 8,
    label: 'Extreme',
    description: 'The event is overwhelming and drives the character to their limits.',
    failureAtMost: 4,
    successAtLeast: 8,
  },
] as const satisfies readonly PressureRow[]

const BANDS = [
  { band: 'success', description: 'The character withstands the event and avoids the trouble or harm.' },
  { band: 'failure', description: 'The character suffers the event and faces the trouble or harm.' },
  {
    band: 'retrievable',
    description: 'The character may raise one emotion by one stage to succeed; otherwise the roll fails.',
  },
] as const satisfies readonly { band: Band; description: string }[]

const EMOTIONS = [
  { emotion: 'anger', label: 'Anger', description: 'Feels wronged or irritated.' },
  { emotion: 'fear', label: 'Fear', description: 'Feels exposed or under threat.' },
  { emotion: 'sadness', label: 'Sadness', description: 'Feels worn out or helpless.' },
  { emotion: 'guilt', label: 'Guilt', description: 'Feels responsible or remorseful.' },
] as const satisfies readonly { emotion: Emotion; label: string; description: string }[]

export const EMOTION_NAMES = EMOTIONS.map((row) => row.emotion)

const MODIFIER_SOURCES = [
  {
    source: 'environment',
    label: 'Environment',
    description: 'The surroundings right now.',
    examples: ['cover', 'terrain', 'lighting', 'timing', 'weather'],
  },
  {
    source: 'actors',
    label: 'Actors',
    description: 'The people or creatures involved.',
    examples: ['protective allies', 'hostile people', 'bystanders'],
  },
  {
    source: 'means',
    label: 'Means',
    description: 'Tools, equipment or techniques at hand.',
    examples: ['a shield', 'a quick-draw holster', 'a protective spell'],
  },
  {
    source: 'condition',
    label: 'Condition',
    description: "The character's overall state.",
    examples: ['fatigue', 'encumbrance', 'drugs or magic'],
  },
] as const satisfies readonly { source: Modifier['source']; label: string; description: string; examples: string[] }[]

const MODIFIER_WEIGHTS = [
  { weights: [-1, 1], impact: 'mild', description: "Slightly helps or hinders the character's reaction." },
  { weights: [-2, 2], impact: 'defining', description: "Decisively helps or hinders the character's reaction." },
] as const

const ABILITY_EXAMPLES = [
  { ability: 'dexterity', use: 'reacting on instinct' },
  { ability: 'agility', use: 'dodging threats and attacks' },
  { ability: 'insight', use: 'seeing through tricks, avoiding traps' },
  { ability: 'composure', use: 'resisting temptation and bait' },
  { ability: 'endurance', use: 'withstanding physical strain or disease' },
] as const

function pressureRow(pressure: Pressure): PressureRow {
  const row = PRESSURES.find((candidate) => candidate.pressure === pressure)
  if (row === undefined) throw new Error(`no pressure row for ${pressure}`)
  return row
}

export function bandOf(pressure: Pressure, result: number): Band {
  const row = pressureRow(pressure)
  if (result <= row.failureAtMost) return 'failure'
  if (result >= row.successAtLeast) return 'success'
  return 'retrievable'
}

export const TABLES = {
  source: 'rules/reaction-rolls.md',
  diceClasses: Object.entries(DICE_SIDES).map(([dice, sides]) => ({ dice, sides })),
  pressures: PRESSURES,
  bands: BANDS,
  emotions: EMOTIONS,
  modifierSources: MODIFIER_SOURCES,
  modifierWeights: MODIFIER_WEIGHTS,
  abilityExamples: ABILITY_EXAMPLES,
}
