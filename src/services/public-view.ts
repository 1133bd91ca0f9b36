import { isDeepStrictEqual } from 'node:util'
import { rebase } from '../lib/rebase.js'
import type { Principal } from './context.js'
import { RuleError } from '../rules/errors.js'
import { findRuleSet } from '../rules/index.js'
import type { Audience } from '../schemas/common.js'
import type { PublicView, Visibility } from '../schemas/events.js'

/**
 * What players see of GM-only rolls (docs/guides/hidden-rolls.md). GM keys see everything;
 * player keys and webhooks without `includeGmEvents` — "players" — never see a GM-only event,
 * nor what it did to a sheet.
 *
 * Players keep seeing the sheet as it was before the hidden event: the character's public
 * sheet. Every public event recorded while the two sheets differ is shown to players as a
 * change of the public sheet: the rules replay it there (the same request and dice; a GM's
 * edit patches it), or, where they refuse to, its own change is carried over (`rebase`: a notch
 * gained is a notch gained) and the rules derive the rest again. The decision shown is the one
 * the public sheet waits for. The public event's own request, dice, outcome and summary are
 * shown as recorded. The public side is worked out once, when an event is written, and stored
 * beside it, so every reader shows the same thing at no cost.
 */
export function audienceOf(who: { role: Principal['role'] | 'admin' }): Audience {
  return who.role === 'player' ? 'players' : 'gm'
}

type Sheet = Record<string, unknown>

export interface PublicSide {
  /** The sheet players see after the event, or null when they see the sheet itself. */
  publicSheet: Sheet | null
  /** Present only when players see the event otherwise than as recorded. */
  publicView?: PublicView
}

export interface SheetChange {
  visibility: Visibility
  /** The sheet players saw before the event, or null when they saw the sheet itself. */
  publicSheet: unknown
  sheetBefore: Sheet | null
  sheetAfter: Sheet
  /**
   * What the event does to another sheet: the rules resolve the same request with the same dice
   * on it, a GM's edit patches it, a revert restores what players saw before the event it undoes.
   */
  replay?: (sheet: Sheet) => unknown
}

/** The public side of an event about to be written: the sheet players see after it, and how they see it. */
export function publicSideOf(campaign: { ruleset: string; settings: unknown }, change: SheetChange): PublicSide {
  const shownBefore = (change.publicSheet as Sheet | null) ?? change.sheetBefore
  if (shownBefore === null) return { publicSheet: null }
  if (change.visibility === 'gm') return { publicSheet: differs(shownBefore, change.sheetAfter) }
  if (change.publicSheet === null || change.sheetBefore === null) return { publicSheet: null }

  const ruleSet = findRuleSet(campaign.ruleset)
  if (!ruleSet) throw new Error(`unknown rule set ${campaign.ruleset}`)
  const settings: unknown = ruleSet.normalizeSettings(campaign.settings)
  const { sheetBefore, sheetAfter } = change
  // The event replayed on the sheet players saw; where the rules refuse that (the hidden state
  // mattered: a decision only the true sheet waits for), its change carried over instead.
  const shownAfter =
    (change.replay && refusedAsNull(() => change.replay!(shownBefore))) ??
    refusedAsNull(() => ruleSet.normalizeSheet(rebase(shownBefore, sheetBefore, sheetAfter), settings)) ??
    shownBefore
  return {
    publicSheet: differs(shownAfter, sheetAfter),
    publicView: {
      sheetBefore: shownBefore,
      sheetAfter: shownAfter,
      pending: ruleSet.pendingOf(shownAfter, settings),
    },
  }
}

const differs = (shown: Sheet, sheet: Sheet) => (isDeepStrictEqual(shown, sheet) ? null : shown)

/** The sheet the rules give, or null where they refuse it (a count carried past its bounds, a decision not open). */
function refusedAsNull(work: () => unknown): Sheet | null {
  try {
    return work() as Sheet
  } catch (error) {
    if (error instanceof RuleError) return null
    throw error
  }
}
