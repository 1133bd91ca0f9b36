import { rollExploding, rollMany, type Dice, type PlannedDie } from '../dice.js'
import type { AppliedEffects, ConditionEntry, LastingTraumaEntry, TraumaRow, TraumaTableSheet } from './schemas.js'

const sum = (faces: readonly number[]) => faces.reduce((total, face) => total + face, 0)

/** Suffering a trauma: its effect dice are rolled here, in table order, and every change lands on a new sheet. */
export function sufferTrauma(
  sheet: TraumaTableSheet,
  row: TraumaRow,
  dice: Dice,
): { sheet: TraumaTableSheet; effects: AppliedEffects } {
  const { effect } = row
  const source = row.id
  // Every effect die is known once the row is: announced together, so a caller short of faces
  // is told all of them at once (src/rules/dice.ts `plan`).
  dice.plan?.(effectDice(effect))

  let healthFaces: number[] = []
  let woundsFromHealth = 0
  if (effect.healthLoss) {
    const { dice: spec, exploding, woundPerDieRolled } = effect.healthLoss
    healthFaces = exploding
      ? rollExploding(dice, spec.sides, 'health-loss')
      : rollMany(dice, spec.count, spec.sides, 'health-loss')
    if (woundPerDieRolled) woundsFromHealth = healthFaces.length
  }

  let experienceFaces: number[] = []
  let experience = 0
  let woundsFromExperience = 0
  if (effect.experience) {
    const { fixed, dice: spec, halfAsWounds } = effect.experience
    if (spec) experienceFaces = rollMany(dice, spec.count, spec.sides, 'experience')
    experience = (fixed ?? 0) + sum(experienceFaces)
    if (halfAsWounds) woundsFromExperience = Math.max(1, Math.floor(experience / 2))
  }

  const nauseatedFaces = effect.instances
    ? rollMany(dice, effect.instances.dice.count, effect.instances.dice.sides, 'instances')
    : []

  const conditions: ConditionEntry[] = (effect.conditions ?? []).map((condition) => ({ ...condition, source }))
  const saveDisadvantages = effect.saveDisadvantage ? [{ ...effect.saveDisadvantage, source }] : []
  const behaviours = effect.behaviour ? [{ ...effect.behaviour, source }] : []
  const lastingTrauma: LastingTraumaEntry | null = effect.lastingTrauma
    ? {
        id: effect.lastingTrauma.id,
        name: effect.lastingTrauma.name,
        severity: effect.lastingTrauma.severity,
        restHeals: effect.lastingTrauma.restHeals,
      }
    : null

  const effects: AppliedEffects = {
    healthLoss: { faces: healthFaces, amount: sum(healthFaces) },
    experience: { faces: experienceFaces, amount: experience },
    wounds: (effect.wounds ?? 0) + woundsFromHealth + woundsFromExperience,
    scars: effect.scars ?? 0,
    moraleSteps: effect.morale?.downgrade ?? 0,
    nauseatedInstances: { faces: nauseatedFaces, amount: sum(nauseatedFaces) },
    miscast: effect.miscast === true,
    conditions,
    saveDisadvantages,
    behaviours,
    lastingTrauma,
    insomnia: effect.insomnia !== undefined,
    sleeplessNight: effect.sleeplessNight === true,
  }

  return {
    effects,
    sheet: {
      ...sheet,
      scars: sheet.scars + effects.scars,
      wounds: sheet.wounds + effects.wounds,
      experience: sheet.experience + effects.experience.amount,
      healthLost: sheet.healthLost + effects.healthLoss.amount,
      moraleStepsLost: sheet.moraleStepsLost + effects.moraleSteps,
      nauseatedInstances: sheet.nauseatedInstances + effects.nauseatedInstances.amount,
      conditions: addConditions(sheet.conditions, conditions),
      saveDisadvantages: [
        ...sheet.saveDisadvantages.filter((held) => !saveDisadvantages.some((gained) => gained.save === held.save)),
        ...saveDisadvantages,
      ],
      behaviours: [
        ...sheet.behaviours.filter(
          (held) =>
            !behaviours.some((gained) => gained.behaviour === held.behaviour && gained.duration === held.duration),
        ),
        ...behaviours,
      ],
      lastingTraumas: lastingTrauma ? addLastingTrauma(sheet.lastingTraumas, lastingTrauma) : sheet.lastingTraumas,
      insomnia: sheet.insomnia || effects.insomnia,
      sleeplessNight: sheet.sleeplessNight || effects.sleeplessNight,
    },
  }
}

/** The same condition with the same duration is held once; the newest source wins. */
function addConditions(held: readonly ConditionEntry[], gained: readonly ConditionEntry[]): ConditionEntry[] {
  const kept = held.filter((old) => !gained.some((added) => added.name === old.name && added.duration === old.duration))
  return [...kept, ...gained]
}

/** Gaining a lasting trauma already held does not stack: its severity goes back up to the row's. */
function addLastingTrauma(held: readonly LastingTraumaEntry[], gained: LastingTraumaEntry): LastingTraumaEntry[] {
  const existing = held.find((trauma) => trauma.id === gained.id)
  if (!existing) return [...held, gained]
  return held.map((trauma) =>
    trauma.id === gained.id ? { ...trauma, severity: Math.max(trauma.severity, gained.severity) } : trauma,
  )
}

/** The effect dice of a row, in the order `sufferTrauma` rolls them. */
function effectDice(effect: TraumaRow['effect']): PlannedDie[] {
  const many = (count: number, sides: number, purpose: string) =>
    Array.from({ length: count }, () => ({ sides, purpose }))
  const health = effect.healthLoss
  return [
    ...(health
      ? health.exploding
        ? [{ sides: health.dice.sides, purpose: 'health-loss', exploding: true }]
        : many(health.dice.count, health.dice.sides, 'health-loss')
      : []),
    ...(effect.experience?.dice ? many(effect.experience.dice.count, effect.experience.dice.sides, 'experience') : []),
    ...(effect.instances ? many(effect.instances.dice.count, effect.instances.dice.sides, 'instances') : []),
  ]
}
