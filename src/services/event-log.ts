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
 * deliveries). The caller has locked the character row.
 */
export async function recordChange(tx: Repositories, change: Change) {
  const saved = await tx.characters.save(change.character.id, {
    sheet: change.payload.sheetAfter,
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.archivedAt === undefined ? {} : { archivedAt: change.archivedAt }),
  })
  const seq = await tx.campaigns.nextSeq(change.campaign.id)
  const event = await tx.events.append({
    id: newId(),
    campaignId: change.campaign.id,
    seq,
    characterId: change.character.id,
    type: change.type,
    ruleset: change.campaign.ruleset,
    visibility: change.visibility,
    actor: change.actor,
    payload: change.payload as unknown as Record<string, unknown>,
    causationId: change.causationId,
    idempotencyKey: change.idempotencyKey,
  })
  return { event: eventView(event), character: characterView(saved, change.campaign.ruleset) }
}

export type Recorded = Awaited<ReturnType<typeof recordChange>>
