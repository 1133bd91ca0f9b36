import { newId } from '../lib/ids.js'
import { storedRuleSet } from '../rules/index.js'
import type { CommandCharacter } from '../repositories/characters.js'
import type { CampaignChange } from '../repositories/events.js'
import type { Actor, Visibility } from './event.js'
import type { Repositories } from '../repositories/index.js'
import { audienceOf, publicSideOf, type FollowedEvent, type Replayed } from '../services/public-view.js'
import { characterView } from '../schemas/characters.js'
import { eventView, type EventPayload } from './event.js'

export interface Change {
  campaign: { id: string; ruleset: string; settings: unknown }
  /** The character it changes; null for an event about the campaign itself, which says what it changes in `campaignChange`. */
  character: CommandCharacter | null
  type: string
  actor: Actor
  /** Who sees it, as the request asked; undefined: derived from what it shows (src/services/public-view.ts). */
  visibility: Visibility | undefined
  /** The GM-only event it settles, amends or reverts, if any. */
  follows: FollowedEvent | null
  causationId: string | null
  idempotencyKey: string | null
  /** Its `pending` is worked out here: an event waits for what its sheet after waits for. */
  payload: Omit<EventPayload, 'pending' | 'publicView'>
  name?: string
  archivedAt?: Date | null
  /** What the event does to another sheet (the one players see): see `SheetChange.replay`. */
  replay?: (sheet: Record<string, unknown>) => Replayed
  restoresPlayersSheet?: boolean
  /** A campaign-level event's new name and settings, saved with it. */
  campaignChange?: CampaignChange
}

/**
 * The second half of every command: save the character with version + 1, take the campaign's
 * next sequence number, append the event (and its webhook deliveries) — one statement, which
 * writes only while the character is at the version the command read. Undefined when it is not
 * any more (another command changed it meanwhile): nothing was written.
 */
export async function recordChange(repositories: Repositories, change: Change) {
  const { character } = change
  const name = change.name ?? character?.name ?? null
  // A campaign's event has no sheet players could know otherwise: it is public unless the GM asks.
  const { visibility, reason, publicSheet, publicView } = publicSideOf(change.campaign, {
    requested: change.visibility,
    follows: change.follows,
    publicSheet: character?.publicSheet ?? null,
    sheetBefore: change.payload.sheetBefore,
    sheetAfter: change.payload.sheetAfter,
    outcome: change.payload.outcome,
    summary: change.payload.summary,
    followUps: change.payload.followUps,
    type: change.type,
    characterName: name,
    ...(change.replay ? { replay: change.replay } : {}),
    ...(change.restoresPlayersSheet ? { restoresPlayersSheet: true } : {}),
  })
  const ruleSet = storedRuleSet(change.campaign)
  const pending = character
    ? ruleSet.pendingOf(change.payload.sheetAfter, ruleSet.normalizeSettings(change.campaign.settings))
    : []
  const payload: EventPayload = { ...change.payload, pending, ...(publicView ? { publicView } : {}) }
  const recorded = await repositories.events.record(
    {
      id: newId(),
      campaignId: change.campaign.id,
      characterId: character?.id ?? null,
      type: change.type,
      ruleset: change.campaign.ruleset,
      visibility,
      actor: change.actor,
      payload: payload,
      causationId: change.causationId,
      idempotencyKey: change.idempotencyKey,
    },
    character
      ? {
          readVersion: character.version,
          sheet: change.payload.sheetAfter,
          publicSheet,
          name: name ?? character.name,
          archivedAt: change.archivedAt,
        }
      : campaignChangeOf(change),
  )
  if (!recorded) return undefined
  // The answer goes to whoever acted: a player gets the event and the character as players see them.
  const audience = audienceOf(change.actor)
  return {
    event: eventView(recorded.event, audience),
    character: recorded.character && characterView(recorded.character, change.campaign, audience),
    visibilityReason: reason,
  }
}

function campaignChangeOf(change: Change): CampaignChange {
  if (!change.campaignChange) throw new Error(`${change.type}: an event without a character changes the campaign`)
  return change.campaignChange
}

/** What a command recorded: the event and, for a character's event, the character after it. */
export type RecordedChange = NonNullable<Awaited<ReturnType<typeof recordChange>>>
/** What a character's command recorded. */
export type Recorded = RecordedChange & { character: NonNullable<RecordedChange['character']> }
