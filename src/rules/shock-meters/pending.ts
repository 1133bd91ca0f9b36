import type { PendingDecision } from '../rule-set.js'
import { RuleError } from '../errors.js'
import { titleOf } from './constants.js'
import type { ShockMetersSheet } from './sheet-schema.js'

/** Every decision the sheet is waiting for, in the order they are usually made: the player's response, then the GM's disorder. */
export function pendingOf(sheet: ShockMetersSheet): PendingDecision[] {
  const decisions: PendingDecision[] = []
  if (sheet.stressed?.response === 'pending') {
    decisions.push({
      action: 'stress-response',
      prompt: `Stressed (${titleOf(sheet.stressed.meter)}): choose the response — panic, paralysis or frenzy.`,
    })
  }
  for (const disorder of sheet.disorders.filter((entry) => entry.name === null)) {
    decisions.push({
      action: 'record-disorder',
      prompt: `Mental trauma (${titleOf(disorder.meter)}): the GM names the disorder.`,
    })
  }
  return decisions
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
