import { RuleError } from '../errors.js'
import type { Resolution } from '../rule-set.js'
import {
  EndCycleRequestSchema,
  EndEncounterRequestSchema,
  EndSceneRequestSchema,
  RestRequestSchema,
  SocialiseRitualRequestSchema,
  type ConditionDuration,
  type ConditionEntry,
  type LastingTraumaEntry,
  type TraumaTableSheet,
} from './schemas.js'
import { derive } from './sheet.js'
import { rowById } from './table.js'
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

export function endScene(sheet: TraumaTableSheet, input: unknown): Result {
  parseWith(EndSceneRequestSchema, input, '/request', 'REQUEST_INVALID')
  const { ended, kept } = splitConditions(sheet.conditions, 'scene')
  const saves = sheet.saveDisadvantages
  return {
    sheet: derive({ ...sheet, conditions: kept, saveDisadvantages: [] }),
    outcome: { conditionsEnded: ended, saveDisadvantagesEnded: saves },
    summary: `End of scene: ended ${[...ended.map((condition) => condition.name), ...saves.map((save) => `${save.save} save disadvantage`)].join(', ') || 'nothing'}`,
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
  const { ended, kept } = splitConditions(sheet.conditions, 'encounter')
  return {
    sheet: derive({ ...sheet, encounterTraumas: [], behaviours: [], conditions: kept }),
    outcome: { traumasCleared: sheet.encounterTraumas, behavioursEnded: sheet.behaviours, conditionsEnded: ended },
    summary: `End of encounter: ${sheet.encounterTraumas.length} trauma${sheet.encounterTraumas.length === 1 ? '' : 's'} cleared, ${sheet.behaviours.length} compelled behaviour${sheet.behaviours.length === 1 ? '' : 's'} ended`,
  }
}

export function rest(sheet: TraumaTableSheet, input: unknown): Result {
  const { recovery: requested = 0 } = parseWith(RestRequestSchema, input, '/request', 'REQUEST_INVALID')
  const recovery = sheet.sleeplessNight ? 'none-sleepless-night' : sheet.insomnia ? 'halved-by-insomnia' : 'full'
  const recovered =
    recovery === 'none-sleepless-night' ? 0 : recovery === 'halved-by-insomnia' ? Math.floor(requested / 2) : requested
  const changes = sheet.lastingTraumas
    .filter((trauma) => trauma.restHeals)
    .map((trauma) => severityChange(trauma, recovered))
  const { ended, kept } = splitConditions(sheet.conditions, 'next-rest')
  return {
    sheet: derive({
      ...sheet,
      conditions: kept,
      lastingTraumas: applyChanges(sheet.lastingTraumas, changes),
      sleeplessNight: false,
    }),
    outcome: {
      requested,
      recovered,
      recovery,
      sleeplessNightConsumed: sheet.sleeplessNight,
      lastingTraumas: changes,
      conditionsEnded: ended,
    },
    summary: `Rest: ${recovery === 'none-sleepless-night' ? 'Sleepless Night, nothing recovered' : `recovered ${recovered} severity${recovery === 'halved-by-insomnia' ? ' (halved by Insomnia)' : ''}`}; ended ${names(ended)}`,
  }
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

export function socialiseRitual(sheet: TraumaTableSheet, input: unknown): Result {
  const request = parseWith(SocialiseRitualRequestSchema, input, '/request', 'REQUEST_INVALID')
  const held = sheet.lastingTraumas.find((trauma) => trauma.id === request.trauma)
  const name = rowById(request.trauma).name
  if (held === undefined) {
    return {
      sheet: derive(sheet),
      outcome: { trauma: request.trauma, amount: request.amount, change: null },
      summary: `Socialise ritual: no ${name} to ease`,
    }
  }
  const change = severityChange(held, request.amount)
  return {
    sheet: derive({ ...sheet, lastingTraumas: applyChanges(sheet.lastingTraumas, [change]) }),
    outcome: { trauma: request.trauma, amount: request.amount, change },
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
