import { isDeepStrictEqual } from 'node:util'
import { NotFoundError } from '../errors.js'
import { mergePatch } from '../lib/merge-patch.js'
import type { Principal } from './context.js'
import type { Store } from '../repositories/index.js'
import { findAction } from '../rules/index.js'
import { resolveAction } from '../rules/rule-set.js'
import { ruleSetOfCampaign } from './campaign-rules.js'
import type { EventPayload } from '../schemas/events.js'

interface Divergence {
  seq: number
  eventId: string
  type: string
  reason: string
}

const same = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))

/**
 * Rebuilds the character's sheet from its history alone — re-resolving every roll with the
 * dice it recorded — and compares each step with what was stored.
 */
export async function auditCharacter(store: Store, principal: Principal, characterId: string) {
  const character = await store.characters.find(principal.campaign.id, characterId)
  if (!character) throw new NotFoundError(`character ${characterId} not found`)
  const ruleSet = ruleSetOfCampaign(principal)
  const events = await store.events.allForCharacter(principal.campaign.id, characterId)
  const sheetsBefore = new Map<string, unknown>()

  let sheet: unknown = null
  let divergence: Divergence | null = null
  for (const event of events) {
    const payload = event.payload as unknown as EventPayload
    const at = (reason: string): Divergence => ({ seq: Number(event.seq), eventId: event.id, type: event.type, reason })
    sheetsBefore.set(event.id, sheet)

    if (event.type !== 'character.created' && !same(payload.sheetBefore, sheet)) {
      divergence = at('the sheet recorded before this event differs from the sheet rebuilt up to it')
      break
    }
    let rebuilt: unknown
    if (event.type === 'character.created') rebuilt = payload.sheetAfter
    else if (event.type === 'character.archived') rebuilt = sheet
    else if (event.type === 'character.updated') {
      const patch = (payload.request as { sheet?: unknown }).sheet
      rebuilt = patch === undefined ? sheet : ruleSet.normalizeSheet(mergePatch(sheet, patch), payload.settings)
    } else if (event.type === 'revert') {
      rebuilt = sheetsBefore.get(event.causationId ?? '')
    } else {
      const action = findAction(ruleSet, event.type)
      if (!action) {
        divergence = at(`unknown action ${event.type}`)
        break
      }
      const replay = resolveAction(ruleSet, action, {
        sheet,
        request: payload.request,
        dice: { source: 'provided', faces: payload.dice.map((die) => die.face) },
        settings: payload.settings,
        // The recorded dice are exactly those used: a face left over means the rules now roll fewer.
        surplus: 'refuse',
      })
      if (!same(replay.outcome, payload.outcome)) {
        divergence = at('re-resolving the roll with its recorded dice gives a different outcome')
        break
      }
      rebuilt = replay.sheet
    }
    if (!same(rebuilt, payload.sheetAfter)) {
      divergence = at('the sheet recorded after this event differs from the one rebuilt')
      break
    }
    sheet = rebuilt
  }

  if (!divergence && !same(sheet, character.sheet)) {
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
