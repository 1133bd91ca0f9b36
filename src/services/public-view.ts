import { isDeepStrictEqual } from 'node:util'
import type { Principal } from '../lib/principal.js'
import { RuleError } from '../rules/errors.js'
import { storedRuleSet } from '../rules/index.js'
import type { FollowUp, RuleSet } from '../rules/rule-set.js'
import type { Audience } from '../schemas/common.js'
import type { PublicView, Visibility, VisibilityReason } from '../history/event.js'
import { eventTypeOf } from '../history/event-types.js'
import { sameJson, sameSummary } from './replay.js'

/**
 * What players see of GM-only events (docs/guides/hidden-rolls.md). GM keys see everything;
 * player keys and webhooks without `includeGmEvents` — "players" — never see a GM-only event,
 * nor what it did to a sheet: they keep the character's public sheet, the sheet as it was
 * before the hidden events.
 *
 * Whether a new event is public is derived here, and only here, from what it would show
 * (docs/api.md, "Who sees an event"). Players are shown an event through what they know and
 * what the event itself says: its request and dice, replayed on the public sheet. So every
 * value they read is a function of the public sheet and of the public event — never of what
 * only a GM-only event established. The public side is worked out once, when an event is
 * written, and stored beside it, so every reader shows the same thing at no cost.
 */
export function audienceOf(who: { role: Principal['role'] | 'admin' }): Audience {
  return who.role === 'player' ? 'players' : 'gm'
}

type Sheet = Record<string, unknown>

/** What an event does to another sheet (the one players see): the rules resolve the same request with the same dice on it. */
export interface Replayed {
  sheet: unknown
  /** Absent for events the rules do not resolve (edits, archives, reverts): their own words do not read the sheet. */
  outcome?: unknown
  summary?: string
  followUps?: FollowUp[]
}

/** The GM-only event a new event settles, amends or reverts. */
export interface FollowedEvent {
  seq: number
  type: string
}

export interface SheetChange {
  /** Who sees it, as asked for; undefined: as this function derives. */
  requested: Visibility | undefined
  /** The GM-only event this one settles, amends or reverts, if any. */
  follows: FollowedEvent | null
  /** The sheet players saw before the event, or null when they saw the sheet itself. */
  publicSheet: unknown
  sheetBefore: Sheet | null
  sheetAfter: Sheet
  outcome: unknown
  summary: string
  followUps?: FollowUp[] | undefined
  /** What players are told happened when they may not read the outcome: its type, and its character (null: the campaign). */
  type: string
  characterName: string | null
  replay?: (sheet: Sheet) => Replayed
  /**
   * True when the event may change the players' sheet otherwise than the sheet itself even while
   * the two are the same: a revert restores what players saw before the event it undoes.
   */
  restoresPlayersSheet?: boolean
}

export interface PublicSide {
  visibility: Visibility
  reason: VisibilityReason
  /** The sheet players see after the event, or null when they see the sheet itself. */
  publicSheet: Sheet | null
  /** Present only when players see the event otherwise than as recorded. */
  publicView?: PublicView
}

/** The visibility of an event about to be written, why, and what players see of it. */
export function publicSideOf(campaign: { ruleset: string; settings: unknown }, change: SheetChange): PublicSide {
  const hidden = change.publicSheet !== null
  const shownBefore = (change.publicSheet as Sheet | null) ?? change.sheetBefore
  if (change.requested === 'gm') return gmOnly(shownBefore, change, requestedReason('gm'))
  if (shownBefore === null || (!hidden && change.follows === null && !change.restoresPlayersSheet)) {
    return { visibility: 'public', reason: requestedReason(change.requested), publicSheet: null }
  }

  const ruleSet = storedRuleSet(campaign)
  const replayed = change.replay ? refusedAsNull(() => change.replay!(shownBefore)) : null
  const readsHiddenState = replayed === null || !sameResult(ruleSet, replayed, change)
  if (change.requested === undefined) {
    if (change.follows) return gmOnly(shownBefore, change, followsReason(change.follows))
    if (readsHiddenState) return gmOnly(shownBefore, change, READS_HIDDEN_STATE)
  }

  const shownAfter = (replayed?.sheet as Sheet | undefined) ?? shownBefore
  const settings: unknown = ruleSet.normalizeSettings(campaign.settings)
  const publicView: PublicView = {
    sheetBefore: shownBefore,
    sheetAfter: shownAfter,
    pending: ruleSet.pendingOf(shownAfter, settings),
    // The id of the GM-only event it follows is that event's own: players are not told it.
    ...(change.follows ? { causationId: null } : {}),
  }
  if (!readsHiddenState) {
    return {
      visibility: 'public',
      reason: requestedReason(change.requested),
      publicSheet: differs(shownAfter, change.sheetAfter),
      publicView,
    }
  }
  // Public as asked, over what the sheet players know cannot show: its result is the GM's alone.
  return {
    visibility: 'public',
    reason: REDACTED,
    publicSheet: differs(shownAfter, change.sheetAfter),
    publicView: {
      ...publicView,
      // Its request may name what only a GM-only event established (the hidden disorder it treats).
      request: null,
      outcome: null,
      summary: `${change.characterName ?? 'The campaign'} — ${eventTypeOf(ruleSet, change.type).title}: the result stays with the GM`,
      followUps: [],
    },
  }
}

function gmOnly(shownBefore: Sheet | null, change: SheetChange, reason: VisibilityReason): PublicSide {
  return {
    visibility: 'gm',
    reason,
    publicSheet: shownBefore === null ? null : differs(shownBefore, change.sheetAfter),
  }
}

/** The replay on the sheet players know says what the event says: its outcome, summary and follow-ups. */
function sameResult(ruleSet: RuleSet, replayed: Replayed, change: SheetChange): boolean {
  if (replayed.outcome === undefined) return true
  return (
    sameJson(replayed.outcome, change.outcome) &&
    sameSummary(ruleSet, replayed.summary, change.summary) &&
    sameJson(replayed.followUps ?? [], change.followUps ?? [])
  )
}

function requestedReason(requested: Visibility | undefined): VisibilityReason {
  if (requested === 'gm')
    return { code: 'requested', detail: 'GM-only, as asked: players and webhooks without GM events never see it.' }
  if (requested === 'public') return { code: 'requested', detail: 'Public, as asked: everyone sees it.' }
  return { code: 'default', detail: 'Public: it neither follows a GM-only event nor reads what one did to the sheet.' }
}

function followsReason(follows: FollowedEvent): VisibilityReason {
  return {
    code: 'follows-gm-only-event',
    detail: `GM-only because it follows the GM-only ${follows.type} #${follows.seq}. Reveal that event first, or send "visibility": "public" to show players only what they can know.`,
  }
}

const READS_HIDDEN_STATE: VisibilityReason = {
  code: 'reads-hidden-state',
  detail:
    'GM-only because its result on the sheet players know would differ: it reads what GM-only events did. Send "visibility": "public" to show players only what they can know.',
}

const REDACTED: VisibilityReason = {
  code: 'redacted',
  detail:
    'Public, as asked; players see that it happened and its dice, but not its result, which reads what GM-only events did.',
}

const differs = (shown: Sheet, sheet: Sheet) => (isDeepStrictEqual(shown, sheet) ? null : shown)

/** What the rules give, or null where they refuse it (a count carried past its bounds, a decision not open). */
function refusedAsNull(work: () => Replayed): Replayed | null {
  try {
    return work()
  } catch (error) {
    if (error instanceof RuleError) return null
    throw error
  }
}
