import { ConflictError, NotFoundError } from '../errors.js'
import { BUILT_IN, eventTypeOf } from '../history/event-types.js'
import type { EventPayload } from '../history/event.js'
import { ruleSetOfCampaign } from './campaign-rules.js'
import { revealedIn } from './commands.js'
import { standingEvents } from '../history/lineage.js'
import type { Principal } from '../lib/principal.js'
import { loadCharacter, type Command } from './pipeline.js'
import { revealedOn, type RevealedEvent } from './replay.js'

/**
 * A GM shows players a GM-only event after the fact, as a GM lifts the screen off a roll: a new
 * public event (the history stays append-only) whose outcome carries the revealed event as
 * recorded, less the sheets, and after which players see what it did to the sheet. Only an event
 * that reads nothing else hidden can be revealed: replayed on the sheet players know, it must give
 * the result it recorded; otherwise revealing it would show what other GM-only events did.
 */
export function revealCommand(principal: Principal, eventId: string): Command {
  return {
    async load(repositories) {
      const event = await repositories.events.find(principal.campaign.id, eventId)
      if (!event) throw new NotFoundError(`event ${eventId} not found`)
      if (!event.characterId) throw new ConflictError(`a ${event.type} event is about the campaign: players see it`)
      return { character: await loadCharacter(repositories, principal, event.characterId) }
    },
    async decide(repositories, { character }) {
      const event = (await repositories.events.find(principal.campaign.id, eventId))!
      const named = `${event.type} #${event.seq}`
      if (event.visibility !== 'gm') throw new ConflictError(`${named} is public already: players see it`)
      const ruleSet = ruleSetOfCampaign(principal)
      const eventType = eventTypeOf(ruleSet, event.type)
      // What the rules resolved, and the GM's edits; reverts, reveals, creations and archiving say nothing of their own.
      if (!eventType.revealable) {
        throw new ConflictError(`a ${event.type} event has nothing of its own to reveal; reveal the event it follows`)
      }
      const lineage = await repositories.events.lineageForCharacter(principal.campaign.id, character.id)
      const standing = standingEvents(lineage)
      if (!standing.some((standingEvent) => standingEvent.id === eventId)) {
        throw new ConflictError(`${named} was reverted: there is nothing of it left to reveal`)
      }
      const revealedEvents = revealedIn(lineage)
      if (revealedEvents.has(eventId)) throw new ConflictError(`${named} was already revealed`)

      const payload = event.payload as unknown as EventPayload
      const revealed: RevealedEvent = {
        id: event.id,
        seq: Number(event.seq),
        type: event.type,
        request: payload.request,
        dice: payload.dice,
        outcome: payload.outcome,
        summary: payload.summary,
        followUps: payload.followUps ?? [],
      }
      const shown = revealedOn(ruleSet, revealed, payload.settings, character.publicSheet ?? character.sheet)
      if (!shown) {
        const earlier = standing.filter(
          (standingEvent) =>
            standingEvent.visibility === 'gm' && standingEvent.seq < event.seq && !revealedEvents.has(standingEvent.id),
        )
        throw new ConflictError(
          earlier.length > 0
            ? `${named} read what earlier GM-only events did: reveal ${earlier.map((hidden) => `${hidden.type} #${hidden.seq}`).join(', ')} first`
            : `${named} no longer replays on the sheet players see (later events changed what it read): revealing it would show more than the event itself`,
        )
      }
      return {
        type: BUILT_IN.reveal.type,
        visibility: BUILT_IN.reveal.visibility,
        causationId: event.id,
        replay: () => shown,
        payload: {
          request: { eventId },
          dice: [],
          outcome: { revealed },
          summary: `Revealed ${eventType.title} #${event.seq}: ${payload.summary}`,
          sheetBefore: character.sheet as Record<string, unknown>,
          sheetAfter: character.sheet as Record<string, unknown>,
          ...(payload.settings === undefined ? {} : { settings: payload.settings }),
        },
      }
    },
  }
}
