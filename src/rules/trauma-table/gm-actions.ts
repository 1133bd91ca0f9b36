import { RuleError } from '../errors.js'
import { didYouMean } from '../../lib/did-you-mean.js'
import type { Resolution } from '../rule-set.js'
import {
  EndCycleRequestSchema,
  EndEncounterRequestSchema,
  EndSceneRequestSchema,
  RestRequestSchema,
  SocialiseRitualRequestSchema,
  type AnxietyId,
  type ConditionDuration,
  type ConditionEntry,
  type LastingTraumaEntry,
  type TraumaRowId,
  type TraumaTableSheet,
} from './schemas.js'
import { derive } from './sheet.js'
import { closestRows, findRow, rowById } from './table.js'
import { parseWith } from '../parse.js'

type Result = Resolution<TraumaTableSheet>

function splitConditions(conditions: readonly ConditionEntry[], ending: ConditionDuration) {
  return {
    ended: conditions.filter((condition) => condition.duration === ending),
    kept: conditions.filter((condition) => condition.duration !== ending),
  }
}

const names = (entries: readonly { name: string }[]) =>
  entries.length === 0 ? 'nothing' : entries.map((entry) => entry.name).join(', ')

/** What ends with the scene; the end of an encounter ends its scene too. */
function closeScene(sheet: TraumaTableSheet) {
  const { ended, kept } = splitConditions(sheet.conditions, 'scene')
  return {
    sheet: { ...sheet, conditions: kept, saveDisadvantages: [] },
    conditionsEnded: ended,
    saveDisadvantagesEnded: sheet.saveDisadvantages,
  }
}

const sceneNames = (scene: ReturnType<typeof closeScene>) => [
  ...scene.conditionsEnded.map((condition) => condition.name),
  ...scene.saveDisadvantagesEnded.map((save) => `${save.save} save disadvantage`),
]

export function endScene(sheet: TraumaTableSheet, input: unknown): Result {
  parseWith(EndSceneRequestSchema, input, '/request', 'REQUEST_INVALID')
  const scene = closeScene(sheet)
  return {
    sheet: derive(scene.sheet),
    outcome: { conditionsEnded: scene.conditionsEnded, saveDisadvantagesEnded: scene.saveDisadvantagesEnded },
    summary: `End of scene: ended ${sceneNames(scene).join(', ') || 'nothing'}`,
  }
}

export function endEncounter(sheet: TraumaTableSheet, input: unknown): Result {
  parseWith(EndEncounterRequestSchema, input, '/request', 'REQUEST_INVALID')
  if (sheet.pendingTrauma !== null) {
    // Settling it afterwards would count it toward the next encounter.
    throw new RuleError(
      'TRAUMA_PENDING',
      `${rowById(sheet.pendingTrauma.finalRow).name} is still waiting for an answer: settle it with \`trauma-response\` before ending the encounter`,
      'conflict',
      '/sheet/pendingTrauma',
    )
  }
  const scene = closeScene(sheet)
  const { ended, kept } = splitConditions(scene.sheet.conditions, 'encounter')
  const traumas = sheet.encounterTraumas.length
  const behaviours = sheet.behaviours.length
  const sceneEnded = sceneNames(scene)
  return {
    sheet: derive({ ...scene.sheet, encounterTraumas: [], behaviours: [], conditions: kept }),
    outcome: {
      traumasCleared: sheet.encounterTraumas,
      behavioursEnded: sheet.behaviours,
      conditionsEnded: [...scene.conditionsEnded, ...ended],
      saveDisadvantagesEnded: scene.saveDisadvantagesEnded,
    },
    summary: `End of encounter: ${traumas} trauma${traumas === 1 ? '' : 's'} cleared, ${behaviours} compelled behaviour${behaviours === 1 ? '' : 's'} ended; ended ${[...sceneEnded, ...ended.map((condition) => condition.name)].join(', ') || 'nothing else'}`,
  }
}

/** Why a rest recovers what it does: Sleepless Night wins over Insomnia. */
function recoveryOf(sheet: TraumaTableSheet) {
  if (sheet.sleeplessNight) return 'none-sleepless-night' as const
  return sheet.insomnia ? ('halved-by-insomnia' as const) : ('full' as const)
}

const RECOVERED_SHARE = { full: 1, 'halved-by-insomnia': 0.5, 'none-sleepless-night': 0 } as const

export function rest(sheet: TraumaTableSheet, input: unknown): Result {
  const request = parseWith(RestRequestSchema, input, '/request', 'REQUEST_INVALID')
  if (request.recovery !== undefined && request.severity !== 0) {
    throw new RuleError(
      'REQUEST_INVALID',
      'request/recovery is the deprecated name of request/severity: send only `severity`',
      'invalid',
      '/request/recovery',
    )
  }
  const requested = { health: request.health ?? 0, severity: request.recovery ?? request.severity ?? 0 }
  const recovery = recoveryOf(sheet)
  const share = RECOVERED_SHARE[recovery]
  const recovered = {
    health: Math.floor(requested.health * share),
    severity: Math.floor(requested.severity * share),
  }
  // Under Insomnia "Rests don't count as Rests for the purposes of other rules", and under
  // Sleepless Night the rest gives no benefit: either way nothing "until your next Rest" ends.
  const countsAsRest = recovery === 'full'
  const changes = sheet.lastingTraumas
    .filter((trauma) => trauma.restHeals)
    .map((trauma) => severityChange(trauma, recovered.severity))
  const { ended, kept } = countsAsRest
    ? splitConditions(sheet.conditions, 'next-rest')
    : { ended: [], kept: sheet.conditions }
  const conditionsKept = countsAsRest ? [] : sheet.conditions.filter((condition) => condition.duration === 'next-rest')
  const healthLost = { before: sheet.healthLost, after: Math.max(0, sheet.healthLost - recovered.health) }
  return {
    sheet: derive({
      ...sheet,
      healthLost: healthLost.after,
      conditions: kept,
      lastingTraumas: applyChanges(sheet.lastingTraumas, changes),
      sleeplessNight: false,
    }),
    outcome: {
      requested,
      recovered,
      recovery,
      countsAsRest,
      sleeplessNightConsumed: sheet.sleeplessNight,
      healthLost,
      lastingTraumas: changes,
      conditionsEnded: ended,
      conditionsKept,
    },
    summary: `Rest: ${restSummary(recovery, recovered)}; ${countsAsRest ? `ended ${names(ended)}` : `not a rest for what lasts until the next rest (kept ${names(conditionsKept)})`}`,
  }
}

function restSummary(recovery: ReturnType<typeof recoveryOf>, recovered: { health: number; severity: number }): string {
  if (recovery === 'none-sleepless-night') return 'Sleepless Night, nothing recovered'
  const amounts = `recovered ${recovered.health} health and ${recovered.severity} severity`
  return recovery === 'halved-by-insomnia' ? `${amounts} (halved by Insomnia)` : amounts
}

export function endCycle(sheet: TraumaTableSheet, input: unknown): Result {
  parseWith(EndCycleRequestSchema, input, '/request', 'REQUEST_INVALID')
  const { ended, kept } = splitConditions(sheet.conditions, 'cycle')
  return {
    sheet: derive({ ...sheet, conditions: kept, insomnia: false }),
    outcome: { insomniaEnded: sheet.insomnia, conditionsEnded: ended },
    summary: `End of cycle: ${sheet.insomnia ? 'Insomnia ends' : 'no Insomnia to end'}`,
  }
}

const ANXIETIES: readonly AnxietyId[] = ['performance-anxiety', 'social-anxiety', 'spacers-anxiety']
const isAnxiety = (id: TraumaRowId): id is AnxietyId => (ANXIETIES as readonly string[]).includes(id)

/** The anxiety a request names by id, name or alias. */
function anxietyNamed(name: string): AnxietyId {
  const found = findRow(name)
  if (found === undefined) {
    throw new RuleError(
      'UNKNOWN_TRAUMA',
      `request/trauma "${name}" is not a row of the trauma table${didYouMean(closestRows(name))}`,
      'invalid',
      '/request/trauma',
    )
  }
  if (!isAnxiety(found.id)) {
    throw new RuleError(
      'REQUEST_INVALID',
      `request/trauma ${found.name} is not an anxiety: a socialise ritual eases only ${ANXIETIES.join(', ')}`,
      'invalid',
      '/request/trauma',
    )
  }
  return found.id
}

export function socialiseRitual(sheet: TraumaTableSheet, input: unknown): Result {
  const request = parseWith(SocialiseRitualRequestSchema, input, '/request', 'REQUEST_INVALID')
  const trauma = anxietyNamed(request.trauma)
  const held = sheet.lastingTraumas.find((lasting) => lasting.id === trauma)
  const name = rowById(trauma).name
  if (held === undefined) {
    return {
      sheet: derive(sheet),
      outcome: { trauma, amount: request.amount, change: null },
      summary: `Socialise ritual: no ${name} to ease`,
    }
  }
  const change = severityChange(held, request.amount)
  return {
    sheet: derive({ ...sheet, lastingTraumas: applyChanges(sheet.lastingTraumas, [change]) }),
    outcome: { trauma, amount: request.amount, change },
    summary: `Socialise ritual: ${name} severity ${change.before} → ${change.after}${change.removed ? ', gone' : ''}`,
  }
}

function severityChange(trauma: LastingTraumaEntry, amount: number) {
  const after = Math.max(0, trauma.severity - amount)
  return { id: trauma.id, before: trauma.severity, after, removed: after === 0 }
}

function applyChanges(
  traumas: readonly LastingTraumaEntry[],
  changes: readonly ReturnType<typeof severityChange>[],
): LastingTraumaEntry[] {
  return traumas.flatMap((trauma) => {
    const change = changes.find((candidate) => candidate.id === trauma.id)
    if (change === undefined) return [trauma]
    return change.removed ? [] : [{ ...trauma, severity: change.after }]
  })
}
