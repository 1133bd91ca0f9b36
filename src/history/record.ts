import { newId } from '../lib/ids.js'
import { storedRuleSet } from '../rules/index.js'
import type { CommandCharacter } from '../repositories/characters.js'
import type { Actor, Visibility } from './event.js'
import type { Repositories } from '../repositories/index.js'
import { audienceOf, publicSideOf, type FollowedEvent, type Replayed } from '../services/public-view.js'
import { characterView } from '../schemas/characters.js'
import { eventView, type EventPayload } from './event.js'

export interface Change {
  campaign: { id: string; ruleset: string; settings: unknown }
  character: CommandCharacter
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
}

/**
 * The second half of every command: save the character with version + 1, take the campaign's
 * next sequence number, append the event (and its webhook deliveries) — one statement, which
 * writes only while the character is at the version the command read. Undefined when it is not
 * any more (another command changed it meanwhile): nothing was written.
 */
export async function recordChange(repositories: Repositories, change: Change) {
  const name = change.name ?? change.character.name
  const { visibility, reason, publicSheet, publicView } = publicSideOf(change.campaign, {
    requested: change.visibility,
    follows: change.follows,
    publicSheet: change.character.publicSheet,
    sheetBefore: change.payload.sheetBefore,
    sheetAfter: change.payload.sheetAfter,
    outcome: change.payload.outcome,
    summary: change.payload.summary,
    followUps: change.payload.followUps,
    title: `${name} — ${change.type.replaceAll('-', ' ')}`,
    ...(change.replay ? { replay: change.replay } : {}),
    ...(change.restoresPlayersSheet ? { restoresPlayersSheet: true } : {}),
  })
  const ruleSet = storedRuleSet(change.campaign)
  const pending = ruleSet.pendingOf(change.payload.sheetAfter, ruleSet.normalizeSettings(change.campaign.settings))
  const payload: EventPayload = { ...change.payload, pending, ...(publicView ? { publicView } : {}) }
  const recorded = await repositories.events.record(
    {
      id: newId(),
      campaignId: change.campaign.id,
      characterId: change.character.id,
      type: change.type,
      ruleset: change.campaign.ruleset,
      visibility,
      actor: change.actor,
      payload: payload as unknown as Record<string, unknown>,
      causationId: change.causationId,
      idempotencyKey: change.idempotencyKey,
    },
    {
      readVersion: change.character.version,
      sheet: change.payload.sheetAfter,
      publicSheet,
      name,
      archivedAt: change.archivedAt,
    },
  )
  if (!recorded) return undefined
  const { event, character } = recorded
  // The answer goes to whoever acted: a player gets the event and the character as players see them.
  const audience = audienceOf(change.actor)
  return {
    event: eventView(event, audience),
    character: characterView(character, change.campaign, audience),
    visibilityReason: reason,
  }
}

export type Recorded = NonNullable<Awaited<ReturnType<typeof recordChange>>>
