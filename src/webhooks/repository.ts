import { Prisma, type RollEvent } from '../generated/prisma/client.js'
import type { Db } from '../repositories/db.js'
import { endpointWants } from './outbox.js'

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type below is derived from it
const DeliveryStatuses = ['pending', 'delivering', 'delivered', 'failed', 'skipped'] as const
type DeliveryStatus = (typeof DeliveryStatuses)[number]

/** Why a GM-only event's delivery was not sent: the endpoint opted out after it was queued. */
export const GM_ONLY_SKIPPED_REASON =
  'the event is GM-only and the endpoint no longer includes GM-only events (includeGmEvents is false)'

/** The channel a trigger NOTIFYs when a delivery becomes due (migration 20261209200000). */
export const DELIVERY_DUE_CHANNEL = 'nerve_webhook_deliveries'

/** The event type of a test delivery; it carries no event of the history. */
export const PING_EVENT_TYPE = 'webhook.ping'

export interface NewEndpoint {
  id: string
  campaignId: string
  url: string
  description: string | null
  eventTypes: string[]
  includeGmEvents: boolean
  secret: string
  /** Endpoints start enabled unless said otherwise (an imported campaign's start disabled). */
  enabled?: boolean
  disabledReason?: string | null
}

export interface EndpointChanges {
  url?: string
  description?: string | null
  eventTypes?: string[]
  includeGmEvents?: boolean
  secret?: string
  previousSecret?: string | null
  previousSecretExpiresAt?: Date | null
  enabled?: boolean
  disabledReason?: string | null
  failingSince?: Date | null
  consecutiveFailures?: number
  pausedUntil?: Date | null
}

export interface DeliveryFilter {
  status?: DeliveryStatus | undefined
  after?: string | undefined
  limit: number
}

/** A delivery a dispatcher has claimed: it alone sends it until it settles it or its lease runs out. */
export interface ClaimedDelivery {
  id: string
  campaignId: string
  endpointId: string
  eventId: string | null
  eventSeq: bigint | null
  eventType: string
  attemptCount: number
  createdAt: Date
  leaseId: string
}

/** What sending a claimed delivery needs of its endpoint. */
export interface SendingEndpoint {
  id: string
  url: string
  enabled: boolean
  secret: string
  previousSecret: string | null
  previousSecretExpiresAt: Date | null
  /** Whether the endpoint sees GM-only events and their consequences, or the events as players do. */
  includeGmEvents: boolean
}

/**
 * A claimed delivery with its endpoint, read by the claim itself, and its event's visibility
 * (null for a ping, or an event that is missing); the event itself is read once for all the
 * endpoints that receive it (WebhookBodies).
 */
export interface DeliveryToSend extends ClaimedDelivery {
  endpoint: SendingEndpoint
  eventVisibility: string | null
}

type ClaimRow = ClaimedDelivery & {
  url: string
  secret: string
  previousSecret: string | null
  previousSecretExpiresAt: Date | null
  includeGmEvents: boolean
  evVisibility: string | null
}

export interface NewAttempt {
  id: string
  campaignId: string
  deliveryId: string
  attemptedAt: Date
  statusCode: number | null
  latencyMs: number
  error: string | null
  responseExcerpt: string | null
}

/**
 * Each endpoint's deliveries in the order the claim picked them (the queue-order index's): the
 * earliest events not yet tried, then the retries; a ping (no event) first.
 */
function inSendingOrder(a: ClaimedDelivery, b: ClaimedDelivery): number {
  if (a.endpointId !== b.endpointId) return a.endpointId < b.endpointId ? -1 : 1
  const retry = Number(a.attemptCount > 0) - Number(b.attemptCount > 0)
  if (retry !== 0) return retry
  if (a.eventSeq !== b.eventSeq) {
    if (a.eventSeq === null) return -1
    if (b.eventSeq === null) return 1
    return a.eventSeq < b.eventSeq ? -1 : 1
  }
  if (a.createdAt.getTime() !== b.createdAt.getTime()) return a.createdAt < b.createdAt ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

const withAttempts = {
  attempts: { orderBy: [{ attemptedAt: 'asc' as const }, { id: 'asc' as const }] },
} satisfies Prisma.WebhookDeliveryInclude

export class WebhookRepository {
  constructor(private readonly db: Db) {}

  createEndpoint(endpoint: NewEndpoint) {
    return this.db.webhookEndpoint.create({ data: endpoint })
  }

  listEndpoints(campaignId: string) {
    return this.db.webhookEndpoint.findMany({ where: { campaignId }, orderBy: { id: 'asc' } })
  }

  findEndpoint(campaignId: string, id: string) {
    return this.db.webhookEndpoint.findFirst({ where: { campaignId, id } })
  }

  updateEndpoint(id: string, changes: EndpointChanges) {
    return this.db.webhookEndpoint.update({ where: { id }, data: { ...changes, updatedAt: new Date() } })
  }

  /** Its deliveries and their attempts go with it. */
  async deleteEndpoint(id: string) {
    await this.db.webhookEndpoint.delete({ where: { id } })
  }

  /** Newest first; one extra row tells whether another page follows. */
  listDeliveries(endpointId: string, filter: DeliveryFilter) {
    return this.db.webhookDelivery.findMany({
      where: { endpointId, ...(filter.status ? { status: filter.status } : {}) },
      // A replay queues many deliveries at one instant: their events' order breaks the tie.
      orderBy: [{ createdAt: 'desc' }, { eventSeq: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
      ...(filter.after ? { cursor: { id: filter.after }, skip: 1 } : {}),
      take: filter.limit + 1,
      include: withAttempts,
    })
  }

  findDelivery(endpointId: string, id: string) {
    return this.db.webhookDelivery.findFirst({ where: { endpointId, id }, include: withAttempts })
  }

  /**
   * Queues a delivery again, due now, as a fresh round of retries (its earlier attempts stay
   * recorded) — unless its event is GM-only and the endpoint no longer includes GM-only events:
   * then it is skipped, never sent. False when it is being sent right now.
   */
  async requeue(id: string): Promise<boolean> {
    const changed = await this.db.$executeRaw`
      WITH target AS (
        SELECT d."id", NOT e."include_gm_events" AND coalesce(ev."visibility" = 'gm', false) AS "withheld"
        FROM "webhook_deliveries" d
          JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
          LEFT JOIN "roll_events" ev ON ev."id" = d."event_id"
        WHERE d."id" = ${id}::uuid
      )
      UPDATE "webhook_deliveries" d
      SET "status" = CASE WHEN t."withheld" THEN 'skipped' ELSE 'pending' END,
          "skipped_reason" = CASE WHEN t."withheld" THEN ${GM_ONLY_SKIPPED_REASON}::text END,
          "attempt_count" = 0, "next_attempt_at" = now(), "delivered_at" = NULL,
          "locked_until" = NULL, "lease_id" = NULL
      FROM target t
      WHERE d."id" = t."id"
        AND NOT (d."status" = 'delivering' AND d."locked_until" > now())`
    return changed === 1
  }

  /** Ends a claimed delivery unsent, as `skipped`, for `reason`. Only the lease holder may: false when the lease was lost. */
  async skip(id: string, leaseId: string, reason: string): Promise<boolean> {
    const changed = await this.db.$executeRaw`
      UPDATE "webhook_deliveries"
      SET "status" = 'skipped', "skipped_reason" = ${reason}::text, "next_attempt_at" = now(),
          "locked_until" = NULL, "lease_id" = NULL
      WHERE "id" = ${id}::uuid AND "lease_id" = ${leaseId}::uuid`
    return changed === 1
  }

  /**
   * Queues every event after `afterSeq` that the endpoint's filters select. An event it already
   * has a delivery for is queued again on that delivery, so its `webhook-id` stays the same and
   * consumers can tell a replay from a new event. Returns how many were queued.
   */
  replay(
    endpoint: { id: string; campaignId: string; eventTypes: string[]; includeGmEvents: boolean },
    afterSeq: number,
  ): Promise<number> {
    return this.db.$executeRaw`
      INSERT INTO "webhook_deliveries" ("id", "campaign_id", "endpoint_id", "event_id", "event_seq", "event_type")
      SELECT nerve_uuid_v7(), ev."campaign_id", ${endpoint.id}::uuid, ev."id", ev."seq", ev."type"
      FROM "roll_events" ev
      WHERE ev."campaign_id" = ${endpoint.campaignId}::uuid
        AND ev."seq" > ${afterSeq}::bigint
        AND ${endpointWants(
          {
            eventTypes: Prisma.sql`${endpoint.eventTypes}::text[]`,
            includeGmEvents: Prisma.sql`${endpoint.includeGmEvents}::boolean`,
          },
          { type: Prisma.raw('ev."type"'), visibility: Prisma.raw('ev."visibility"') },
        )}
      ON CONFLICT ("endpoint_id", "event_id") DO UPDATE
      SET "status" = 'pending', "attempt_count" = 0, "next_attempt_at" = now(), "delivered_at" = NULL,
          "locked_until" = NULL, "lease_id" = NULL
      WHERE NOT ("webhook_deliveries"."status" = 'delivering' AND "webhook_deliveries"."locked_until" > now())`
  }

  createPing(delivery: { id: string; campaignId: string; endpointId: string }) {
    return this.db.webhookDelivery.create({ data: { ...delivery, eventType: PING_EVENT_TYPE }, include: withAttempts })
  }

  /** A re-enabled endpoint's queue is due at once, in event order. */
  async resume(endpointId: string) {
    await this.db.$executeRaw`
      UPDATE "webhook_deliveries" SET "next_attempt_at" = now()
      WHERE "endpoint_id" = ${endpointId}::uuid AND "status" = 'pending' AND "next_attempt_at" > now()`
  }

  /** Deliveries not yet delivered, by status, and how long the oldest of each has waited: the outbox gauges. */
  outboxFigures() {
    return this.db.$queryRaw<{ status: string; deliveries: number; oldestSeconds: number | null }[]>`
      SELECT "status", count(*)::int AS "deliveries",
             extract(epoch FROM now() - min("created_at"))::float8 AS "oldestSeconds"
      FROM "webhook_deliveries" WHERE "status" IN ('pending', 'delivering') GROUP BY "status"`
  }

  // The dispatcher's side. A delivery is due when it is pending and its time has come, or when
  // the dispatcher that claimed it let its lease run out (it crashed or lost the database).

  /** One cheap query, so an idle dispatcher polls without opening a transaction. */
  async anyDue(): Promise<boolean> {
    const [row] = await this.db.$queryRaw<{ due: boolean }[]>`
      SELECT EXISTS (
        SELECT 1 FROM "webhook_deliveries" d JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
        WHERE e."enabled" AND (e."paused_until" IS NULL OR e."paused_until" <= now())
          AND ((d."status" = 'pending' AND d."next_attempt_at" <= now())
            OR (d."status" = 'delivering' AND d."locked_until" <= now()))
      ) AS "due"`
    return row?.due ?? false
  }

  /**
   * The claim, as one statement with no transaction around it: locks up to `limit` endpoints
   * that are enabled, not backing off, with something due and no batch in flight, oldest due
   * first (SKIP LOCKED lets dispatchers pass each other); leases the endpoint and up to
   * `perEndpoint` of its due deliveries in the order they are to be sent (the earliest events
   * not yet tried, then the earliest retries); and returns them in that order with their
   * endpoints and events, so sending needs no further reads.
   *
   * The endpoint is locked FOR NO KEY UPDATE: a roll queueing a delivery holds FOR KEY SHARE on
   * it (the foreign key) until it commits, which FOR UPDATE would conflict with. The statement's
   * snapshot may predate another dispatcher's claim or settlement: locking the endpoint re-checks
   * its latest version, so a batch leased meanwhile is seen, and the UPDATE re-checks each
   * delivery's latest version, so one settled or leased meanwhile is not leased again.
   */
  async claimDue(
    limit: number,
    perEndpoint: number,
    excluding: string[],
    leaseId: string,
    leaseMs: number,
  ): Promise<DeliveryToSend[]> {
    const rows = await this.db.$queryRaw<ClaimRow[]>`
      WITH ready AS (
        SELECT e."id" FROM "webhook_endpoints" e
        WHERE e."enabled"
          AND (e."paused_until" IS NULL OR e."paused_until" <= now())
          AND (e."leased_until" IS NULL OR e."leased_until" <= now())
          AND e."id" <> ALL(${excluding}::uuid[])
          AND NOT EXISTS (
            SELECT 1 FROM "webhook_deliveries" d
            WHERE d."endpoint_id" = e."id" AND d."status" IN ('pending', 'delivering')
              AND d."status" = 'delivering' AND d."locked_until" > now())
          AND EXISTS (
            SELECT 1 FROM "webhook_deliveries" d
            WHERE d."endpoint_id" = e."id" AND d."status" IN ('pending', 'delivering')
              AND ((d."status" = 'pending' AND d."next_attempt_at" <= now())
                OR (d."status" = 'delivering' AND d."locked_until" <= now())))
        ORDER BY (
          SELECT min(d."next_attempt_at") FROM "webhook_deliveries" d
          WHERE d."endpoint_id" = e."id" AND d."status" IN ('pending', 'delivering'))
        LIMIT ${limit}::integer
        FOR NO KEY UPDATE OF e SKIP LOCKED
      ), leased AS (
        UPDATE "webhook_endpoints" e
        SET "lease_id" = ${leaseId}::uuid,
            "leased_until" = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
        FROM ready WHERE e."id" = ready."id"
      ), head AS (
        -- Each endpoint's next delivery, read in the queue-order index's order.
        SELECT next."id", next."endpoint_id", next."event_id"
        FROM ready r CROSS JOIN LATERAL (
          SELECT x."id", x."endpoint_id", x."event_id"
          FROM "webhook_deliveries" x
          WHERE x."endpoint_id" = r."id" AND x."status" IN ('pending', 'delivering')
            AND ((x."status" = 'pending' AND x."next_attempt_at" <= now())
              OR (x."status" = 'delivering' AND x."locked_until" <= now()))
          ORDER BY x."attempt_count" > 0, x."event_seq" ASC NULLS FIRST, x."created_at", x."id"
          LIMIT ${perEndpoint}::integer
        ) next
      )
      UPDATE "webhook_deliveries" d
      SET "status" = 'delivering',
          "locked_until" = now() + make_interval(secs => ${leaseMs / 1000}::double precision),
          "lease_id" = ${leaseId}::uuid
      FROM head
        JOIN "webhook_endpoints" e ON e."id" = head."endpoint_id"
        LEFT JOIN "roll_events" ev ON ev."id" = head."event_id"
      WHERE d."id" = head."id"
        AND ((d."status" = 'pending' AND d."next_attempt_at" <= now())
          OR (d."status" = 'delivering' AND d."locked_until" <= now()))
      RETURNING d."id", d."campaign_id" AS "campaignId", d."endpoint_id" AS "endpointId", d."event_id" AS "eventId",
        d."event_seq" AS "eventSeq", d."event_type" AS "eventType", d."attempt_count" AS "attemptCount",
        d."created_at" AS "createdAt", d."lease_id" AS "leaseId",
        e."url", e."secret", e."previous_secret" AS "previousSecret",
        e."previous_secret_expires_at" AS "previousSecretExpiresAt", e."include_gm_events" AS "includeGmEvents",
        ev."visibility" AS "evVisibility"`
    rows.sort(inSendingOrder)
    return rows.map((row) => ({
      id: row.id,
      campaignId: row.campaignId,
      endpointId: row.endpointId,
      eventId: row.eventId,
      eventSeq: row.eventSeq,
      eventType: row.eventType,
      attemptCount: row.attemptCount,
      createdAt: row.createdAt,
      leaseId: row.leaseId,
      endpoint: {
        id: row.endpointId,
        url: row.url,
        enabled: true,
        secret: row.secret,
        previousSecret: row.previousSecret,
        previousSecretExpiresAt: row.previousSecretExpiresAt,
        includeGmEvents: row.includeGmEvents,
      },
      eventVisibility: row.evVisibility,
    }))
  }

  /** The events of deliveries about to be sent, as the history holds them; a missing one is left out. */
  eventsToSend(ids: string[]): Promise<RollEvent[]> {
    return this.db.rollEvent.findMany({ where: { id: { in: ids } } })
  }

  /**
   * Successful attempts, any number in one statement: records each, settles each delivery (only
   * for its lease holder) and clears its endpoint's failure state. Returns the ids of the
   * deliveries settled; one missing lost its lease meanwhile.
   */
  async settleDelivered(
    successes: { attempt: NewAttempt; leaseId: string; endpointId: string }[],
  ): Promise<Set<string>> {
    const column = <T>(pick: (success: (typeof successes)[number]) => T) => successes.map(pick)
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      WITH input AS (
        SELECT * FROM unnest(
          ${column((s) => s.attempt.id)}::uuid[], ${column((s) => s.attempt.campaignId)}::uuid[],
          ${column((s) => s.attempt.deliveryId)}::uuid[], ${column((s) => s.attempt.attemptedAt.toISOString())}::timestamptz[],
          ${column((s) => s.attempt.statusCode)}::integer[], ${column((s) => s.attempt.latencyMs)}::integer[],
          ${column((s) => s.attempt.responseExcerpt)}::text[], ${column((s) => s.leaseId)}::uuid[],
          ${column((s) => s.endpointId)}::uuid[]
        ) AS i("attempt_id", "campaign_id", "delivery_id", "attempted_at", "status_code", "latency_ms",
               "response_excerpt", "lease_id", "endpoint_id")
      ), attempt AS (
        INSERT INTO "webhook_attempts"
          ("id", "campaign_id", "delivery_id", "attempted_at", "status_code", "latency_ms", "error", "response_excerpt")
        SELECT i."attempt_id", i."campaign_id", i."delivery_id", i."attempted_at", i."status_code", i."latency_ms",
          NULL, i."response_excerpt"
        FROM input i
        WHERE EXISTS (SELECT 1 FROM "webhook_deliveries" d WHERE d."id" = i."delivery_id")
      ), settled AS (
        UPDATE "webhook_deliveries" d
        SET "status" = 'delivered', "attempt_count" = d."attempt_count" + 1, "delivered_at" = now(),
            "next_attempt_at" = now(), "locked_until" = NULL, "lease_id" = NULL
        FROM input i
        WHERE d."id" = i."delivery_id" AND d."lease_id" = i."lease_id"
        RETURNING d."id"
      ), recovered AS (
        UPDATE "webhook_endpoints" e SET "failing_since" = NULL, "consecutive_failures" = 0, "paused_until" = NULL
        FROM (SELECT DISTINCT "endpoint_id" FROM input) i
        WHERE e."id" = i."endpoint_id" AND (e."failing_since" IS NOT NULL OR e."paused_until" IS NOT NULL)
      )
      SELECT "id" FROM settled`
    return new Set(rows.map((row) => row.id))
  }

  /**
   * Retention: deletes up to `limit` deliveries that reached a final state (`delivered`,
   * `skipped`, or `failed` for good) more than `retentionDays` ago, and their attempts. Every settling
   * statement sets `next_attempt_at` to the moment a delivery became final, so the
   * (status, next_attempt_at) index finds them; `delivered_at` is checked too, to be safe.
   * A pending or in-flight delivery is never touched, however old. SKIP LOCKED lets sweeps on
   * several instances run at once without waiting for each other, and passes over a delivery
   * being redelivered right now; taking the lock re-checks the row, so one queued again
   * meanwhile stays, and once locked nothing can queue it again before it is gone.
   */
  async deleteFinalBefore(retentionDays: number, limit: number): Promise<{ deliveries: number; attempts: number }> {
    const [row] = await this.db.$queryRaw<{ deliveries: number; attempts: number }[]>`
      WITH doomed AS (
        SELECT d."id" FROM "webhook_deliveries" d
        WHERE d."status" IN ('delivered', 'failed', 'skipped')
          AND d."next_attempt_at" < now() - make_interval(days => ${retentionDays}::integer)
          AND (d."delivered_at" IS NULL OR d."delivered_at" < now() - make_interval(days => ${retentionDays}::integer))
        LIMIT ${limit}::integer
        FOR UPDATE SKIP LOCKED
      ), attempts AS (
        DELETE FROM "webhook_attempts" a USING doomed WHERE a."delivery_id" = doomed."id"
        RETURNING 1
      ), deliveries AS (
        DELETE FROM "webhook_deliveries" d USING doomed
        WHERE d."id" = doomed."id"
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM deliveries)::int AS "deliveries", (SELECT count(*) FROM attempts)::int AS "attempts"`
    return row ?? { deliveries: 0, attempts: 0 }
  }

  /** Only where no other process can hold a lease (embedded PGlite): a previous run's leases are void. */
  async releaseAllLeases(): Promise<number> {
    await this.db.$executeRaw`
      UPDATE "webhook_endpoints" SET "lease_id" = NULL, "leased_until" = NULL WHERE "lease_id" IS NOT NULL`
    return this.db.$executeRaw`
      UPDATE "webhook_deliveries" SET "status" = 'pending', "locked_until" = NULL, "lease_id" = NULL
      WHERE "status" = 'delivering'`
  }

  /**
   * Lets go of an endpoint once its batch has been sent and settled (or handed back): another
   * dispatcher may claim it from now on.
   */
  async releaseEndpoint(id: string, leaseId: string) {
    await this.db.$executeRaw`
      UPDATE "webhook_endpoints" SET "lease_id" = NULL, "leased_until" = NULL
      WHERE "id" = ${id}::uuid AND "lease_id" = ${leaseId}::uuid`
  }

  /** Whether a batch may go on with a GM-only event: the endpoint is still enabled and still includes them. */
  async stillIncludesGmEvents(id: string): Promise<boolean> {
    const [row] = await this.db.$queryRaw<{ yes: boolean }[]>`
      SELECT "enabled" AND "include_gm_events" AS "yes" FROM "webhook_endpoints" WHERE "id" = ${id}::uuid`
    return row?.yes ?? false
  }

  /** Hands a claimed delivery back untried (its batch stopped early, or the dispatcher is stopping). */
  async release(id: string, leaseId: string) {
    await this.db.$executeRaw`
      UPDATE "webhook_deliveries" SET "status" = 'pending', "locked_until" = NULL, "lease_id" = NULL
      WHERE "id" = ${id}::uuid AND "lease_id" = ${leaseId}::uuid AND "status" = 'delivering'`
  }

  /** Records an attempt, unless its delivery was deleted with its endpoint meanwhile. */
  async recordAttempt(attempt: NewAttempt) {
    await this.db.$executeRaw`
      INSERT INTO "webhook_attempts"
        ("id", "campaign_id", "delivery_id", "attempted_at", "status_code", "latency_ms", "error", "response_excerpt")
      SELECT ${attempt.id}::uuid, ${attempt.campaignId}::uuid, ${attempt.deliveryId}::uuid, ${attempt.attemptedAt},
        ${attempt.statusCode}::integer, ${attempt.latencyMs}::integer, ${attempt.error}, ${attempt.responseExcerpt}
      WHERE EXISTS (SELECT 1 FROM "webhook_deliveries" WHERE "id" = ${attempt.deliveryId}::uuid)`
  }

  /**
   * Settles a claimed delivery: delivered, due again after `retryInMs`, or failed for good
   * (`retryInMs` null). Only the lease holder may: false when the lease was lost.
   */
  async settle(
    id: string,
    leaseId: string,
    outcome: { delivered: boolean; retryInMs: number | null },
  ): Promise<boolean> {
    const status = outcome.delivered ? 'delivered' : outcome.retryInMs === null ? 'failed' : 'pending'
    const changed = await this.db.$executeRaw`
      UPDATE "webhook_deliveries"
      SET "status" = ${status}::text,
          "attempt_count" = "attempt_count" + 1,
          "delivered_at" = CASE WHEN ${outcome.delivered}::boolean THEN now() ELSE NULL END,
          "next_attempt_at" = now() + make_interval(secs => ${(outcome.retryInMs ?? 0) / 1000}::double precision),
          "locked_until" = NULL,
          "lease_id" = NULL
      WHERE "id" = ${id}::uuid AND "lease_id" = ${leaseId}::uuid`
    return changed === 1
  }

  /**
   * Notes a failed attempt. The endpoint backs off for `pauseMs(consecutive failures)` and is
   * failing since its first failure after its last success. It is disabled when it answered
   * 410 Gone, or has been failing for longer than `disableAfterMs`. Returns when it may be tried
   * again (in ms) and why it was disabled now, if it was.
   */
  async endpointFailed(
    id: string,
    options: { gone: boolean; disableAfterMs: number; pauseMs: (consecutiveFailures: number) => number },
  ): Promise<{ pauseMs: number; disabledReason: string | null }> {
    const windowReason = `failing for longer than ${Math.round(options.disableAfterMs / 1000)} s`
    const [row] = await this.db.$queryRaw<{ consecutiveFailures: number; disabledReason: string | null }[]>`
      WITH before AS (SELECT "enabled", "failing_since" FROM "webhook_endpoints" WHERE "id" = ${id}::uuid FOR NO KEY UPDATE),
      decided AS (
        SELECT CASE
          WHEN NOT before."enabled" THEN NULL
          WHEN ${options.gone}::boolean THEN 'the endpoint answered 410 Gone'
          WHEN before."failing_since" IS NOT NULL
            AND before."failing_since" <= now() - make_interval(secs => ${options.disableAfterMs / 1000}::double precision)
            THEN ${windowReason}::text
          END AS "reason"
        FROM before
      )
      UPDATE "webhook_endpoints" e
      SET "failing_since" = coalesce(e."failing_since", now()),
          "consecutive_failures" = e."consecutive_failures" + 1,
          "enabled" = e."enabled" AND decided."reason" IS NULL,
          "disabled_reason" = coalesce(decided."reason", e."disabled_reason"),
          "updated_at" = CASE WHEN decided."reason" IS NULL THEN e."updated_at" ELSE now() END
      FROM decided
      WHERE e."id" = ${id}::uuid
      RETURNING e."consecutive_failures" AS "consecutiveFailures", decided."reason" AS "disabledReason"`
    if (!row) return { pauseMs: 0, disabledReason: null }
    const pauseMs = options.pauseMs(row.consecutiveFailures)
    await this.db.$executeRaw`
      UPDATE "webhook_endpoints"
      SET "paused_until" = now() + make_interval(secs => ${pauseMs / 1000}::double precision)
      WHERE "id" = ${id}::uuid`
    return { pauseMs, disabledReason: row.disabledReason }
  }
}

export type WebhookDeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof withAttempts }>
