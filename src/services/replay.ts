import { mergePatch } from '../lib/merge-patch.js'
import { RuleError } from '../rules/errors.js'
import { findAction } from '../rules/index.js'
import { resolveAction, type FollowUp, type RuleSet } from '../rules/rule-set.js'

/**
 * What replaying an event reads of it: the event as the API shows it (`Event`), and the rule
 * settings it was resolved with, which the API does not show (absent for the character events).
 */
export interface RecordedEvent {
  id: string
  type: string
  causationId: string | null
  request: unknown
  dice: readonly { face: number }[]
  outcome: unknown
  sheetBefore: unknown
  sheetAfter: unknown
  settings?: unknown
}

/** The sheet before an earlier event of the same character, by its id; undefined when it is not one. */
export type SheetBeforeOf = (eventId: string) => unknown

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

/** The sheet an event leaves, and for a roll what it was re-resolved to. */
interface Rebuilt {
  sheet: unknown
  outcome?: unknown
  summary?: string
  followUps?: FollowUp[]
}

/**
 * What the event does to `sheet`: a roll re-resolved with the dice it recorded, an edit's merge
 * patch applied, a revert's earlier sheet restored. Throws the rules' RuleError where they
 * refuse. Used on the character's own sheet (`replayEvent`) and on the sheet players see (an
 * imported campaign's public side).
 */
export function rebuildSheet(
  ruleSet: RuleSet,
  event: RecordedEvent,
  sheet: unknown,
  sheetBeforeOf: SheetBeforeOf,
): Rebuilt {
  switch (event.type) {
    case 'character.created':
      // What a creation recorded must be a sheet the rules take as it is.
      return { sheet: ruleSet.normalizeSheet(event.sheetAfter, event.settings) as unknown }
    case 'character.archived':
      return { sheet }
    case 'character.updated': {
      const patch = (event.request as { sheet?: unknown } | null)?.sheet
      return {
        sheet:
          patch === undefined ? sheet : (ruleSet.normalizeSheet(mergePatch(sheet, patch), event.settings) as unknown),
      }
    }
    case 'revert':
      return { sheet: sheetBeforeOf(event.causationId ?? '') }
    case 'reveal':
      // What players see changes; the sheet itself does not (see `revealedOn`).
      return { sheet }
    default: {
      const action = findAction(ruleSet, event.type)
      if (!action) throw new RuleError('UNKNOWN_ACTION', `unknown action ${event.type}`, 'invalid')
      const resolved = resolveAction(ruleSet, action, {
        sheet,
        request: event.request,
        dice: { source: 'provided', faces: event.dice.map((die) => die.face) },
        settings: event.settings,
        // The recorded dice are exactly those used: a face left over means the rules now roll fewer.
        surplus: 'refuse',
      })
      return {
        sheet: resolved.sheet,
        outcome: resolved.outcome,
        summary: resolved.summary,
        followUps: resolved.followUps,
      }
    }
  }
}

/** What a reveal shows players of the event it reveals: the event as recorded, less the sheets. */
export interface RevealedEvent {
  id: string
  seq: number
  type: string
  request: unknown
  dice: readonly { face: number }[]
  outcome: unknown
  summary: string
  followUps: FollowUp[]
}

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
      rebuilt.summary === revealed.summary &&
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
  if (event.type !== 'character.created' && !sameJson(event.sheetBefore, sheet)) {
    return { divergence: 'the sheet recorded before this event differs from the sheet rebuilt up to it' }
  }
  if (event.type === 'revert' && sheetBeforeOf(event.causationId ?? '') === undefined) {
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
