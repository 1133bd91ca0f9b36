import type { Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

export const Visibilities = ['public', 'gm'] as const
export type Visibility = (typeof Visibilities)[number]

export interface Actor {
  role: 'gm' | 'player' | 'admin'
  keyId: string | null
}

export interface NewEvent {
  id: string
  campaignId: string
  seq: bigint
  characterId: string | null
  type: string
  ruleset: string
  visibility: Visibility
  actor: Actor
  payload: Record<string, unknown>
  causationId: string | null
  idempotencyKey: string | null
}

export interface EventFilter {
  after?: number | undefined
  limit: number
  characterId?: string | undefined
  type?: string | undefined
  /** Player keys see public events only. */
  publicOnly: boolean
}

export class EventRepository {
  constructor(private readonly db: Db) {}

  /**
   * Appends the event and, in the same statement batch, one outbox row per webhook endpoint
   * that wants it, so an acknowledged event always has its deliveries.
   */
  async append(event: NewEvent) {
    const created = await this.db.rollEvent.create({
      data: {
        ...event,
        actor: event.actor as unknown as Prisma.InputJsonValue,
        payload: event.payload as Prisma.InputJsonValue,
      },
    })
    await this.db.$executeRaw`
      INSERT INTO "webhook_deliveries" ("id", "campaign_id", "endpoint_id", "event_id", "event_seq", "event_type")
      SELECT gen_random_uuid(), e."campaign_id", e."id", ${event.id}::uuid, ${event.seq}, ${event.type}
      FROM "webhook_endpoints" e
      WHERE e."campaign_id" = ${event.campaignId}::uuid
        AND e."enabled"
        AND (cardinality(e."event_types") = 0 OR ${event.type} = ANY(e."event_types"))
        AND (${event.visibility} = 'public' OR e."include_gm_events")`
    return created
  }

  find(campaignId: string, id: string) {
    return this.db.rollEvent.findFirst({ where: { campaignId, id } })
  }

  list(campaignId: string, filter: EventFilter) {
    return this.db.rollEvent.findMany({
      where: {
        campaignId,
        ...(filter.after === undefined ? {} : { seq: { gt: BigInt(filter.after) } }),
        ...(filter.characterId ? { characterId: filter.characterId } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.publicOnly ? { visibility: 'public' } : {}),
      },
      orderBy: { seq: 'asc' },
      take: filter.limit + 1,
    })
  }

  latestForCharacter(campaignId: string, characterId: string) {
    return this.db.rollEvent.findFirst({ where: { campaignId, characterId }, orderBy: { seq: 'desc' } })
  }

  allForCharacter(campaignId: string, characterId: string) {
    return this.db.rollEvent.findMany({ where: { campaignId, characterId }, orderBy: { seq: 'asc' } })
  }

  /**
   * The event of the deciding action that settled a pending decision and still stands (a GM
   * revert of it reopens the decision). Other events caused by the roll, such as a passion
   * re-roll of it, settle nothing.
   */
  async settlementOf(campaignId: string, eventId: string, decision: string) {
    const settlements = await this.db.rollEvent.findMany({
      where: { campaignId, causationId: eventId, type: decision },
      orderBy: { seq: 'asc' },
    })
    for (const settlement of settlements) {
      const reverted = await this.db.rollEvent.findFirst({
        where: { campaignId, causationId: settlement.id, type: 'revert' },
      })
      if (!reverted) return settlement
    }
    return null
  }
}
