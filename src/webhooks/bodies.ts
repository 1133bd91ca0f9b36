import type { RollEvent } from '../generated/prisma/client.js'
import type { Audience } from '../schemas/common.js'
import { eventView } from '../history/event.js'
import { PING_EVENT_TYPE, type DeliveryToSend } from './repository.js'

/** Events whose bodies are kept: a few seconds of a busy table's events. */
const KEPT_EVENTS = 500

/** An event's body for each audience; null when the event is missing. */
type Bodies = Record<Audience, string> | null

/**
 * The JSON bodies of a dispatcher's deliveries: `{ type, timestamp, data }`, the same bytes on
 * every attempt. An event is read and rendered once and its bodies kept for the other endpoints
 * that receive it (a campaign's fan-out), rather than read and rendered for each of them.
 */
export class WebhookBodies {
  readonly #fetch: (ids: string[]) => Promise<RollEvent[]>
  /** Rendered (or being read) bodies by event, oldest first. */
  readonly #kept = new Map<string, Promise<Bodies>>()

  constructor(fetchEvents: (ids: string[]) => Promise<RollEvent[]>) {
    this.#fetch = fetchEvents
  }

  /** Reads, in one query, the events of a batch whose bodies are not kept yet. */
  async prefetch(batch: DeliveryToSend[]): Promise<void> {
    const missing = batch.flatMap((delivery) =>
      delivery.eventId && !this.#kept.has(delivery.eventId) ? [delivery.eventId] : [],
    )
    if (missing.length > 0) await Promise.all(this.#read([...new Set(missing)]).values())
  }

  /** The delivery's body, as its endpoint sees the event; null when the event is missing. */
  async bodyOf(delivery: DeliveryToSend): Promise<string | null> {
    const { eventId } = delivery
    if (!eventId) return pingBody(delivery)
    const bodies = await (this.#kept.get(eventId) ?? this.#read([eventId]).get(eventId)!)
    return bodies && bodies[delivery.endpoint.includeGmEvents ? 'gm' : 'players']
  }

  /** Reads events in one query and keeps the promise of each one's bodies. */
  #read(eventIds: string[]): Map<string, Promise<Bodies>> {
    const fetched = this.#fetch(eventIds).then((events) => new Map(events.map((event) => [event.id, event])))
    const read = new Map<string, Promise<Bodies>>()
    for (const eventId of eventIds) {
      const bodies = fetched.then((events) => {
        const event = events.get(eventId)
        return event ? { gm: eventBody(event, 'gm'), players: eventBody(event, 'players') } : null
      })
      // A failed read is not kept: the next attempt reads again.
      bodies.catch(() => this.#kept.get(eventId) === bodies && this.#kept.delete(eventId))
      read.set(eventId, bodies)
      this.#kept.set(eventId, bodies)
      if (this.#kept.size > KEPT_EVENTS) this.#kept.delete(this.#kept.keys().next().value!)
    }
    return read
  }
}

function eventBody(event: RollEvent, audience: Audience): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: eventView(event, audience),
  })
}

function pingBody(delivery: DeliveryToSend): string {
  return JSON.stringify({
    type: PING_EVENT_TYPE,
    timestamp: delivery.createdAt.toISOString(),
    data: {
      endpointId: delivery.endpointId,
      campaignId: delivery.campaignId,
      message: 'A test delivery from Nerve: your endpoint is reachable and can verify the signature.',
    },
  })
}
