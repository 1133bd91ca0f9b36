import { RuleError } from '../../../src/rules/errors.js'
import { type Resolved } from '../../../src/rules/rule-set.js'
import { resolveChecked } from '../resolve-checked.js'
import { reactionRolls } from '../../../src/rules/reaction-rolls/index.js'
import type {
  ReactionRetrievalOutcome,
  ReactionRollOutcome,
  ReactionRollsSheet,
} from '../../../src/rules/reaction-rolls/schemas.js'

type With<Outcome> = Omit<Resolved<ReactionRollsSheet>, 'outcome'> & { outcome: Outcome }

export const rollAction = reactionRolls.actions.find((action) => action.name === 'reaction-roll')!
export const retrievalAction = reactionRolls.actions.find((action) => action.name === 'reaction-retrieval')!

export function sheetWith(patch: Record<string, unknown> = {}): ReactionRollsSheet {
  return reactionRolls.normalizeSheet(patch)
}

export function roll(
  request: Record<string, unknown>,
  faces: number[],
  sheet: unknown = {},
  settings: Record<string, unknown> = {},
): With<ReactionRollOutcome> {
  const resolved = resolveChecked(reactionRolls, rollAction, {
    sheet,
    request,
    dice: { source: 'provided', faces },
    settings,
  })
  return { ...resolved, outcome: resolved.outcome as ReactionRollOutcome }
}

export function settle(
  sheet: unknown,
  request: Record<string, unknown>,
  settings: Record<string, unknown> = {},
): With<ReactionRetrievalOutcome> {
  const resolved = resolveChecked(reactionRolls, retrievalAction, {
    sheet,
    request,
    dice: { source: 'provided', faces: [] },
    settings,
  })
  return { ...resolved, outcome: resolved.outcome as ReactionRetrievalOutcome }
}

/** Runs `fn` and returns the RuleError it throws (or fails the caller's assertion with null). */
export function ruleErrorOf(fn: () => unknown): RuleError | null {
  try {
    fn()
  } catch (error) {
    if (error instanceof RuleError) return error
    throw error
  }
  return null
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

/** A published schema's `$id` and top-level keywords, for contract checks. */
export function schemaMeta(schema: unknown): { $id?: string; additionalProperties?: unknown; examples?: unknown[] } {
  return schema as { $id?: string; additionalProperties?: unknown; examples?: unknown[] }
}
