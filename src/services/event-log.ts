import { newId } from '../lib/ids.js'
import type { LockedCharacter } from '../repositories/characters.js'
import type { Actor, Visibility } from '../repositories/events.js'
import type { Repositories } from '../repositories/index.js'
import { characterView, eventView, type EventPayload } from './views.js'

export interface Change {
  campaign: { id: string; ruleset: string }
  character: LockedCharacter
  type: string
  actor: Actor
  visibility: Visibility
  causationId: string | null
  idempotencyKey: string | null
  payload: EventPayload
  name?: string
  archivedAt?: Date | null
}

/**
 * The second half of every command, inside its transaction: save the character with
 * version + 1, take the campaign's next sequence number, append the event (and its webhook
 * deliveries) — one statement. The caller has locked the character row.
 */
export async function recordChange(tx: Repositories, change: Change) {
  const { event, character } = await tx.events.record(
    {
      id: newId(),
      campaignId: change.campaign.id,
      characterId: change.character.id,
      type: change.type,
      ruleset: change.campaign.ruleset,
      visibility: change.visibility,
      actor: change.actor,
      payload: change.payload as unknown as Record<string, unknown>,
      causationId: change.causationId,
      idempotencyKey: change.idempotencyKey,
    },
    { sheet: change.payload.sheetAfter, name: change.name, archivedAt: change.archivedAt },
  )
  return { event: eventView(event), character: characterView(character, change.campaign.ruleset) }
}

export type Recorded = Awaited<ReturnType<typeof recordChange>>
