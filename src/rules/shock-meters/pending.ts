import type { PendingDecision } from '../rule-set.js'
import { RuleError } from '../errors.js'
import { titleOf } from './constants.js'
import type { ShockMetersSheet } from './sheet-schema.js'

/** The decision the sheet is waiting for, if any: the player's response first, then the GM's disorder. */
export function pendingOf(sheet: ShockMetersSheet): PendingDecision | null {
  if (sheet.stressed?.response === 'pending') {
    return {
      action: 'stress-response',
      prompt: `Stressed (${titleOf(sheet.stressed.meter)}): choose the response — panic, paralysis or frenzy.`,
    }
  }
  const disorder = sheet.disorders.find((entry) => entry.name === null)
  if (disorder !== undefined) {
    return {
      action: 'record-disorder',
      prompt: `Mental trauma (${titleOf(disorder.meter)}): the GM names the disorder.`,
    }
  }
  return null
}

/** A new stress check waits until both the response and the disorder are settled. */
export function requireNothingPending(sheet: ShockMetersSheet): void {
  if (sheet.stressed?.response === 'pending') {
    throw new RuleError(
      'RESPONSE_PENDING',
      'the character is stressed and has not chosen a response yet: settle it with stress-response first',
      'conflict',
      '/sheet/stressed/response',
    )
  }
  const index = sheet.disorders.findIndex((entry) => entry.name === null)
  if (index >= 0) {
    throw new RuleError(
      'DISORDER_PENDING',
      'a disorder from mental trauma has not been named yet: the GM settles it with record-disorder first',
      'conflict',
      `/sheet/disorders/${index}/name`,
    )
  }
}
