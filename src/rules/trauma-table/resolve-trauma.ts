import type { Dice } from '../dice.js'
import { RuleError } from '../errors.js'
import type { PendingDecision, Resolution } from '../rule-set.js'
import { sufferTrauma } from './effects.js'
import type {
  AppliedEffects,
  TraumaResponse,
  TraumaRollRecord,
  TraumaRollRequest,
  TraumaSettlement,
  TraumaTableSheet,
} from './schemas.js'
import { MAX_ENCOUNTER_TRAUMAS, TraumaResponseRequestSchema, TraumaRollRequestSchema } from './schemas.js'
import { derive } from './sheet.js'
import { rowById } from './table.js'
import { findTrauma } from './upgrades.js'
import { parseWith } from '../parse.js'
import { AWAITING_ANSWER, CONDITION_LASTS, describeBehaviour } from './words.js'

const RESPONSE_ACTION = 'trauma-response'

/** A rolled trauma waits for the player to accept it or answer it with an ability. */
export function pendingOf(sheet: TraumaTableSheet): PendingDecision[] {
  if (sheet.pendingTrauma === null) return []
  const row = rowById(sheet.pendingTrauma.finalRow)
  return [
    {
      action: RESPONSE_ACTION,
      prompt: `${row.name} (${row.label}) — accept it, or answer it with an ability such as "Not Today!".`,
    },
  ]
}

/** The request read, and refused while a trauma waits for an answer: what a roll and its odds both start from. */
export function readTraumaRoll(sheet: TraumaTableSheet, input: unknown): TraumaRollRequest {
  // Value.Default has filled every optional field that has a default.
  const request = parseWith(TraumaRollRequestSchema, input, '/request', 'REQUEST_INVALID') as TraumaRollRequest
  if (sheet.pendingTrauma !== null) {
    throw new RuleError(
      'TRAUMA_PENDING',
      `${rowById(sheet.pendingTrauma.finalRow).name} is still waiting for an answer: settle it with \`${RESPONSE_ACTION}\` (accept, or answer with an ability) before rolling another trauma`,
      'conflict',
      '/sheet/pendingTrauma',
    )
  }
  refuseBeyondEncounterLimit(sheet, 'end the encounter (`end-encounter`) before rolling another')
  return request
}

/**
 * A trauma accepted past the limit would make a sheet Nerve cannot store; the character's
 * state, not the request, is at fault, and ending the encounter clears it (409, as a pending
 * trauma is).
 */
function refuseBeyondEncounterLimit(sheet: TraumaTableSheet, whatToDo: string): void {
  if (sheet.encounterTraumas.length < MAX_ENCOUNTER_TRAUMAS) return
  throw new RuleError(
    'ENCOUNTER_TRAUMA_LIMIT',
    `${MAX_ENCOUNTER_TRAUMAS} traumas have been suffered this encounter, the most Nerve records in one: ${whatToDo}`,
    'conflict',
    '/sheet/encounterTraumas',
  )
}

export function rollTrauma(sheet: TraumaTableSheet, input: unknown, dice: Dice): Resolution<TraumaTableSheet> {
  const request = readTraumaRoll(sheet, input)
  const record = findTrauma(sheet, request, dice.roll(100, 'trauma'))
  const rolled = describeRoll(record)

  if (request.response === undefined && rowById(record.finalRow).countsAsTrauma) {
    const row = rowById(record.finalRow)
    const outcome: TraumaSettlement = {
      roll: record,
      trauma: { id: row.id, name: row.name, label: row.label },
      status: 'pending',
      response: null,
      effects: null,
      countsThisEncounter: false,
    }
    const after = derive({ ...sheet, pendingTrauma: record })
    return { sheet: after, outcome, summary: `${rolled}; ${AWAITING_ANSWER}` }
  }
  const settled = settle(sheet, record, request.response ?? 'accept', dice)
  return { ...settled, summary: `${rolled}; ${settled.summary}` }
}

export function respondToTrauma(sheet: TraumaTableSheet, input: unknown, dice: Dice): Resolution<TraumaTableSheet> {
  const request = parseWith(TraumaResponseRequestSchema, input, '/request', 'REQUEST_INVALID')
  if (sheet.pendingTrauma === null) {
    throw new RuleError(
      'NO_TRAUMA_PENDING',
      'no trauma is waiting for an answer: roll one with `trauma-roll` first',
      'conflict',
      '/sheet/pendingTrauma',
    )
  }
  return settle(sheet, sheet.pendingTrauma, request.response, dice)
}

/**
 * Accepting applies the row's effects and adds it to this encounter's traumas. An ability
 * answer changes the outcome, so nothing applies and it does not count as suffered.
 * Unharmed has nothing to decide.
 */
function settle(
  sheet: TraumaTableSheet,
  record: TraumaRollRecord,
  response: TraumaResponse,
  dice: Dice,
): Resolution<TraumaTableSheet> {
  const row = rowById(record.finalRow)
  const trauma = { id: row.id, name: row.name, label: row.label }
  const cleared = { ...sheet, pendingTrauma: null }

  if (!row.countsAsTrauma) {
    const outcome: TraumaSettlement = {
      roll: record,
      trauma,
      status: 'unharmed',
      response: null,
      effects: null,
      countsThisEncounter: false,
    }
    return { sheet: derive(cleared), outcome, summary: `${row.name}: no effect` }
  }
  if (response !== 'accept') {
    const outcome: TraumaSettlement = {
      roll: record,
      trauma,
      status: 'answered',
      response,
      effects: null,
      countsThisEncounter: false,
    }
    return {
      sheet: derive(cleared),
      outcome,
      summary: `${row.name} answered with ${response.ability}: no effect applied`,
    }
  }
  refuseBeyondEncounterLimit(
    sheet,
    'answer this one with an ability instead; then the encounter can end (`end-encounter`)',
  )
  const suffered = sufferTrauma(cleared, row, dice)
  const outcome: TraumaSettlement = {
    roll: record,
    trauma,
    status: 'accepted',
    response,
    effects: suffered.effects,
    countsThisEncounter: true,
  }
  return {
    sheet: derive({ ...suffered.sheet, encounterTraumas: [...suffered.sheet.encounterTraumas, row.id] }),
    outcome,
    summary: `${row.name} accepted: ${describeEffects(suffered.effects)}`,
  }
}

function describeRoll(record: TraumaRollRecord): string {
  const modifier = record.modifier === 0 ? '' : ` ${record.modifier > 0 ? '+' : '−'} ${Math.abs(record.modifier)}`
  const parts = [`Trauma: d100 ${record.face}${modifier} = ${record.total} → ${rowById(record.baseRow).name}`]
  if (record.shifts.length > 0) {
    const reasons = record.shifts
      .map((shift) => `${shift.reason} ${shift.direction === 'upgrade' ? '+' : '−'}${shift.steps}`)
      .join(', ')
    const net = record.netShift >= 0 ? `+${record.netShift}` : `−${-record.netShift}`
    const clamp = record.clamped === null ? '' : ` (stopped at the ${record.clamped} of the table)`
    parts.push(`${net} rows (${reasons}) → ${rowById(record.shiftedRow).name}${clamp}`)
  }
  for (const repeat of record.repeats) {
    parts.push(`${rowById(repeat.from).name} already suffered this encounter → ${rowById(repeat.to).name}`)
  }
  return parts.join('; ')
}

function describeEffects(effects: AppliedEffects): string {
  const parts: string[] = []
  if (effects.healthLoss.faces.length > 0)
    parts.push(`lost ${effects.healthLoss.amount} health [${effects.healthLoss.faces.join(', ')}]`)
  if (effects.experience.amount > 0) parts.push(`gained ${effects.experience.amount} experience`)
  if (effects.wounds > 0) parts.push(`${effects.wounds} wound${effects.wounds === 1 ? '' : 's'}`)
  if (effects.scars > 0) parts.push(`${effects.scars} scar${effects.scars === 1 ? '' : 's'}`)
  if (effects.moraleSteps > 0) parts.push(`morale down ${effects.moraleSteps}`)
  if (effects.nauseatedInstances.faces.length > 0)
    parts.push(`${effects.nauseatedInstances.amount} instances of Nauseated`)
  if (effects.miscast) parts.push('a miscast')
  for (const condition of effects.conditions) parts.push(`${condition.name} (${CONDITION_LASTS[condition.duration]})`)
  for (const save of effects.saveDisadvantages)
    parts.push(`${save.save} saves at a disadvantage until the end of the scene`)
  for (const behaviour of effects.behaviours) parts.push(describeBehaviour(behaviour))
  if (effects.lastingTrauma)
    parts.push(`lasting trauma ${effects.lastingTrauma.name} at severity ${effects.lastingTrauma.severity}`)
  if (effects.insomnia) parts.push('Insomnia until the next cycle')
  if (effects.sleeplessNight) parts.push('the next rest gives nothing')
  return parts.join(', ')
}
