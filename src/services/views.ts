import type { ApiKey, Campaign, Character, RollEvent } from '../generated/prisma/client.js'
import { findRuleSet } from '../rules/index.js'
import type { FollowUp, PendingDecision } from '../rules/rule-set.js'
import type { Actor, Event, Visibility } from '../schemas/events.js'
import type { Audience, PublicView } from './public-view.js'

/**
 * What the API shows of each stored record: ids as strings, sequence numbers as numbers, no
 * secrets — and to players, characters and events as they see them (./public-view.ts).
 */

export function campaignView(campaign: Campaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    ruleset: campaign.ruleset,
    settings: campaign.settings as Record<string, unknown>,
    eventCount: Number(campaign.lastSeq),
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
  }
}

export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    role: key.role as 'gm' | 'player',
    label: key.label,
    prefix: key.prefix,
    characterIds: key.characterIds,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

/** Where an action on the character is made: the route a decision or a follow-up names. */
const actionRoute = (campaignId: string, characterId: string | null, action: string) =>
  `/v1/campaigns/${campaignId}/characters/${characterId}/${action}`

/** Each item with the route of its action. */
function routed<T extends { action: string }>(campaignId: string, characterId: string | null, items: readonly T[]) {
  return items.map((item) => ({ ...item, route: actionRoute(campaignId, characterId, item.action) }))
}

/** Events written before decisions were listed hold one decision or null. */
export function pendingList(pending: EventPayload['pending']): PendingDecision[] {
  return Array.isArray(pending) ? pending : pending === null ? [] : [pending]
}

export function characterView(
  character: Character,
  campaign: { ruleset: string; settings: unknown },
  audience: Audience,
) {
  const sheet = audience === 'players' ? (character.publicSheet ?? character.sheet) : character.sheet
  const ruleSet = findRuleSet(campaign.ruleset)
  const pending = ruleSet ? ruleSet.pendingOf(sheet, ruleSet.normalizeSettings(campaign.settings)) : []
  return {
    id: character.id,
    campaignId: character.campaignId,
    name: character.name,
    ruleset: campaign.ruleset,
    sheet: sheet as Record<string, unknown>,
    pending: routed(character.campaignId, character.id, pending),
    version: character.version,
    createdAt: character.createdAt.toISOString(),
    updatedAt: character.updatedAt.toISOString(),
    archivedAt: character.archivedAt?.toISOString() ?? null,
  }
}

/** The JSON an event's payload column holds. */
export interface EventPayload {
  /**
   * The character's name when the event was recorded, written by `EventRepository.record`
   * (events recorded before names were kept got theirs from migration 20261205000000).
   */
  characterName?: string | null
  request: Event['request']
  dice: Event['dice']
  /** Provided faces the resolution did not use, in the order sent; absent from events recorded before they were kept. */
  unusedFaces?: Event['unusedFaces']
  outcome: Event['outcome']
  summary: Event['summary']
  /** Every decision left open; events written before decisions were listed hold one, or null. */
  pending: PendingDecision[] | PendingDecision | null
  /** Rolls the result calls for; absent from events written before follow-ups were named. */
  followUps?: FollowUp[]
  sheetBefore: Record<string, unknown> | null
  sheetAfter: Record<string, unknown>
  /** Campaign settings the event was resolved with, so an audit replays it exactly. */
  settings?: unknown
  /** How players see this public event, when GM-only events made their sheet differ. */
  publicView?: PublicView
}

/** Players are never shown a GM-only event: the callers leave those out before asking for a view. */
export function eventView(event: RollEvent, audience: Audience): Event {
  const payload = event.payload as unknown as EventPayload
  const shown = audience === 'players' ? payload.publicView : undefined
  return {
    id: event.id,
    seq: Number(event.seq),
    campaignId: event.campaignId,
    characterId: event.characterId,
    characterName: payload.characterName ?? null,
    type: event.type,
    ruleset: event.ruleset,
    visibility: event.visibility as Visibility,
    actor: event.actor as Actor,
    occurredAt: event.occurredAt.toISOString(),
    causationId: event.causationId,
    request: payload.request,
    dice: payload.dice,
    unusedFaces: payload.unusedFaces ?? [],
    outcome: payload.outcome,
    summary: payload.summary,
    pending: routed(event.campaignId, event.characterId, pendingList(shown ? shown.pending : payload.pending)),
    followUps: routed(event.campaignId, event.characterId, payload.followUps ?? []),
    sheetBefore: shown ? shown.sheetBefore : payload.sheetBefore,
    sheetAfter: shown ? shown.sheetAfter : payload.sheetAfter,
  }
}
