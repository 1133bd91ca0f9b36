import { NotFoundError } from '../errors.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import { ruleSetOfCampaign } from './campaign-rules.js'
import { replayEvent, sameJson } from './replay.js'
import type { EventPayload } from '../history/event.js'

interface Divergence {
  seq: number
  eventId: string
  type: string
  reason: string
}

/**
 * Rebuilds the character's sheet from its history alone — re-resolving every roll with the
 * dice it recorded — and compares each step with what was stored.
 */
export async function auditCharacter(
  store: Pick<Store, 'characters' | 'events'>,
  principal: Principal,
  characterId: string,
) {
  const character = await store.characters.find(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  const ruleSet = ruleSetOfCampaign(principal)
  const events = await store.events.allForCharacter(principal.campaign.id, characterId)
  const sheetsBefore = new Map<string, unknown>()

  let sheet: unknown = null
  let divergence: Divergence | null = null
  for (const event of events) {
    const payload = event.payload as unknown as EventPayload
    sheetsBefore.set(event.id, sheet)
    const step = replayEvent(
      ruleSet,
      { ...payload, id: event.id, type: event.type, causationId: event.causationId },
      sheet,
      (id) => sheetsBefore.get(id),
    )
    if ('divergence' in step) {
      divergence = { seq: Number(event.seq), eventId: event.id, type: event.type, reason: step.divergence }
      break
    }
    sheet = step.sheet
  }

  if (!divergence && !sameJson(sheet, character.sheet)) {
    const last = events.at(-1)
    divergence = {
      seq: Number(last?.seq ?? 0),
      eventId: last?.id ?? '',
      type: last?.type ?? '',
      reason: 'the stored sheet differs from the sheet rebuilt from the whole history',
    }
  }
  return {
    characterId,
    consistent: divergence === null,
    eventsReplayed: events.length,
    version: character.version,
    divergence,
  }
}
