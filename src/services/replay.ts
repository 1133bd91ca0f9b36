import { BUILT_IN, eventTypeOf, type Rebuilt, type RecordedEvent, type SheetBeforeOf } from '../history/event-types.js'
import { RuleError } from '../rules/errors.js'
import type { RuleSet } from '../rules/rule-set.js'
import type { Event } from '../history/event.js'

/** Either the sheet the event leaves, rebuilt, or why it parts from the record. */
export type ReplayStep = { sheet: unknown } | { divergence: string }

/**
 * Whether two values read the same as JSON: in any key order, and with members JSON leaves out
 * (undefined ones) left out. Compared in place: an import compares three sheets per event.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]))
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = Object.keys(left).filter((key) => left[key] !== undefined)
  return (
    keys.length === Object.keys(right).filter((key) => right[key] !== undefined).length &&
    keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]))
  )
}

/**
 * Whether a summary rebuilt now says what the recorded one says: word for word, or in the words
 * the rule set's summaries used before a rewording (`RuleSet.rewordings`).
 */
export function sameSummary(ruleSet: RuleSet, rebuilt: string | undefined, recorded: string): boolean {
  if (rebuilt === recorded) return true
  let reworded = recorded
  for (const { before, now } of ruleSet.rewordings) reworded = reworded.replaceAll(before, now)
  return rebuilt === reworded
}

/**
 * What the event does to `sheet`, as its type's registry entry replays it. Throws the rules'
 * RuleError where they refuse. Used on the character's own sheet (`replayEvent`) and on the
 * sheet players see (an imported campaign's public side).
 */
export function rebuildSheet(
  ruleSet: RuleSet,
  event: RecordedEvent,
  sheet: unknown,
  sheetBeforeOf: SheetBeforeOf,
): Rebuilt {
  return eventTypeOf(ruleSet, event.type).replay(ruleSet, event, sheet, sheetBeforeOf)
}

/** What a reveal shows players of the event it reveals: the event as recorded, less the sheets. */
export type RevealedEvent = Pick<
  Event,
  'id' | 'seq' | 'type' | 'request' | 'dice' | 'outcome' | 'summary' | 'followUps'
>

/**
 * The revealed event replayed on the sheet players see, or undefined where that replay would
 * show players something other than the event as recorded: then its result read what other
 * GM-only events did, and revealing it would reveal those too.
 */
export function revealedOn(
  ruleSet: RuleSet,
  revealed: RevealedEvent,
  settings: unknown,
  shown: unknown,
): { sheet: unknown } | undefined {
  let rebuilt: Rebuilt
  try {
    rebuilt = rebuildSheet(
      ruleSet,
      { ...revealed, causationId: null, sheetBefore: null, sheetAfter: null, settings },
      shown,
      () => undefined,
    )
  } catch (error) {
    if (error instanceof RuleError) return undefined
    throw error
  }
  const same =
    !('outcome' in rebuilt) ||
    (sameJson(rebuilt.outcome, revealed.outcome) &&
      sameSummary(ruleSet, rebuilt.summary, revealed.summary) &&
      sameJson(rebuilt.followUps ?? [], revealed.followUps))
  return same ? { sheet: rebuilt.sheet } : undefined
}

/**
 * Replays one event of a character on the sheet rebuilt up to it, and compares each step with
 * what was recorded: the sheet before, the outcome of a roll, the sheet after. The audit replays
 * a stored character's history with it; an import replays an archive's.
 */
export function replayEvent(
  ruleSet: RuleSet,
  event: RecordedEvent,
  sheet: unknown,
  sheetBeforeOf: SheetBeforeOf,
): ReplayStep {
  if (event.type !== BUILT_IN.created.type && !sameJson(event.sheetBefore, sheet)) {
    return { divergence: 'the sheet recorded before this event differs from the sheet rebuilt up to it' }
  }
  if (event.type === BUILT_IN.revert.type && sheetBeforeOf(event.causationId ?? '') === undefined) {
    return { divergence: 'the event it reverts is not an earlier event of this character' }
  }
  let rebuilt: Rebuilt
  try {
    rebuilt = rebuildSheet(ruleSet, event, sheet, sheetBeforeOf)
  } catch (error) {
    if (!(error instanceof RuleError)) throw error
    return { divergence: `the rules refuse to replay it: ${error.message}` }
  }
  if ('outcome' in rebuilt && !sameJson(rebuilt.outcome, event.outcome)) {
    return { divergence: 're-resolving the roll with its recorded dice gives a different outcome' }
  }
  if (!sameJson(rebuilt.sheet, event.sheetAfter)) {
    return { divergence: 'the sheet recorded after this event differs from the one rebuilt' }
  }
  return { sheet: rebuilt.sheet }
}
