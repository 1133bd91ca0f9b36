import { Prisma, type Character, type RollEvent } from '../generated/prisma/client.js'
import { eventListings, type Actor, type EventPayload, type Visibility } from '../history/event.js'
import type { Db, RawSql } from './db.js'
import { prepared } from '../db/prepared.js'
import { endpointWants } from '../webhooks/outbox.js'

/**
 * An event about to be written: its row as stored (`RollEvent`), less what the write gives it
 * (`seq`, `occurredAt`), with its JSON columns typed. `characterId` is null for an event about the
 * campaign itself (src/history/event-types.ts, `scope`).
 */
export type NewEvent = Omit<RollEvent, 'seq' | 'occurredAt' | 'visibility' | 'actor' | 'payload'> & {
  visibility: Visibility
  actor: Actor
  payload: Record<string, unknown>
}

/** An event of an imported history, stored as given: its payload is what `record` would have stored. */
export interface ImportedEvent extends Omit<NewEvent, 'idempotencyKey'> {
  seq: number
  occurredAt: string
}

/** What an event does to its character: the new sheet, name and archive state, from the version the command read. */
export interface CharacterChange {
  /** The version the command read, which the write requires the row to be at still; 0: a character not stored yet, which the write inserts. */
  readVersion: number
  sheet: unknown
  /** The sheet players see, or null when they see `sheet` (src/services/public-view.ts). */
  publicSheet: unknown
  name: string
  archivedAt?: Date | null | undefined
}

/** What a campaign-level event changes of the campaign, written with it: the name and settings it read, and those it leaves. */
export interface CampaignChange {
  read: { name: string; settings: Prisma.InputJsonObject }
  name: string
  settings: Prisma.InputJsonObject
}

interface RecordedRow {
  id: string
  campaignId: string
  name: string
  version: number
  createdAt: Date
  updatedAt: Date
  archivedAt: Date | null
  /** As text: see `RawSql`. */
  seq: string
}

export interface EventFilter {
  after?: number | undefined
  /** Only events up to this `seq` (an export stops at the campaign's last event when it began). */
  through?: number | undefined
  limit: number
  characterId?: string | undefined
  type?: string | undefined
  /** Player keys see public events only. */
  publicOnly: boolean
  /** Lists nothing once this key is revoked or its campaign closed, checked in the same snapshot as the events. */
  whileUsable?: string | undefined
}

export class EventRepository {
  constructor(
    private readonly db: Db,
    private readonly sql: RawSql,
  ) {}

  /**
   * The write of every command, as one statement: saves the character (version + 1; a new one is
   * inserted at version 1), takes the campaign's next sequence number, appends the event and
   * queues one webhook delivery per endpoint that wants it. It writes only while the character
   * is still at the version the command read (`change.readVersion`), and answers undefined
   * otherwise, having written nothing: another command changed the character in between. The
   * campaign row stays locked by this statement until commit, so sequence numbers are handed out
   * without gaps. One round trip instead of four keeps the row locks short under concurrent commands.
   *
   * The sheet travels once: the stored payload's `sheetAfter` is the saved row's new sheet
   * (`change.sheet`) and its `sheetBefore` the row's sheet until now — or null when the
   * payload's is null (a creation). Only the payload's other, small parts are sent; the stored
   * payload has the same keys as `event.payload`, and `characterName`: the name the change
   * leaves the character with, so the event names the character as it was called when the event
   * was recorded (a rename's own event, the new name). The event's listings are written with it; its time (`occurredAt`) is
   * this server's when it records the event, which the listings carry.
   *
   * An event about the campaign itself (`change` is a `CampaignChange`) saves the campaign's name
   * and settings instead, with its sequence number, only while they are still those the command
   * read; it has no character (`character` null) and its payload is stored as given.
   */
  async record(
    event: NewEvent,
    change: CharacterChange | CampaignChange,
  ): Promise<{ event: RollEvent; character: Character | null } | undefined> {
    const recorded = recordedEvent(event, change, new Date())
    const [row] = await this.sql<RecordedRow>(prepared(recordStatement(recorded, change)))
    if (!row) return undefined
    if (!isCharacterChange(change)) return { event: { ...recorded, seq: BigInt(row.seq) }, character: null }
    return {
      event: { ...recorded, seq: BigInt(row.seq) },
      character: {
        id: row.id,
        campaignId: row.campaignId,
        name: row.name,
        sheet: change.sheet as Character['sheet'],
        publicSheet: change.publicSheet as Character['publicSheet'],
        version: row.version,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        archivedAt: row.archivedAt,
      },
    }
  }

  /**
   * Appends part of an imported history in one statement: rows as given, their sequence numbers
   * included (the campaign was created with the last of them). Unlike `record`, it queues no
   * webhook delivery: the history happened elsewhere and was announced there.
   */
  async appendImported(events: ImportedEvent[]) {
    const rows = events.map((event) => {
      const stored: RollEvent = {
        ...event,
        payload: event.payload as Prisma.JsonObject,
        seq: BigInt(event.seq),
        occurredAt: new Date(event.occurredAt),
        idempotencyKey: null,
      }
      return { ...event, ...eventListings(stored) }
    })
    await this.db.$executeRaw`
      INSERT INTO "roll_events" ("id", "campaign_id", "seq", "character_id", "type", "ruleset", "visibility",
        "actor", "payload", "causation_id", "occurred_at", "listing", "public_listing")
      SELECT r."id", r."campaignId", r."seq", r."characterId", r."type", r."ruleset", r."visibility",
        r."actor", r."payload", r."causationId", r."occurredAt", r."listing", r."publicListing"
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r("id" uuid, "campaignId" uuid, "seq" bigint,
        "characterId" uuid, "type" text, "ruleset" text, "visibility" text, "actor" jsonb, "payload" jsonb,
        "causationId" uuid, "occurredAt" timestamptz, "listing" text, "publicListing" text)`
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
        ...(filter.whileUsable
          ? { campaign: { deletedAt: null, apiKeys: { some: { id: filter.whileUsable, revokedAt: null } } } }
          : {}),
      },
      orderBy: { seq: 'asc' },
      take: filter.limit + 1,
    })
  }

  latestForCharacter(campaignId: string, characterId: string) {
    return this.db.rollEvent.findFirst({ where: { campaignId, characterId }, orderBy: { seq: 'desc' } })
  }

  /** The character's event just before `seq`: its sheet after is the sheet an event at `seq` started from. */
  previousForCharacter(campaignId: string, characterId: string, seq: bigint) {
    return this.db.rollEvent.findFirst({
      where: { campaignId, characterId, seq: { lt: seq } },
      orderBy: { seq: 'desc' },
    })
  }

  /**
   * The character's events that left `decision` open (settled since or not), as ids. Found
   * through the partial indexes on events with open decisions, so few payloads are read: those
   * listing decisions (roll_events_open_decisions_idx) and those written before decisions were
   * listed, which hold a single one (roll_events_pending_action_idx).
   */
  async pendingFor(campaignId: string, characterId: string, decision: string): Promise<Set<string>> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "roll_events"
      WHERE "campaign_id" = ${campaignId}::uuid AND "character_id" = ${characterId}::uuid
        AND ((jsonb_typeof("payload" -> 'pending') = 'array' AND ("payload" -> 'pending') <> '[]'::jsonb
              AND ("payload" -> 'pending') @> jsonb_build_array(jsonb_build_object('action', ${decision}::text)))
          OR (("payload" -> 'pending') ->> 'action') = ${decision})`
    return new Set(rows.map((row) => row.id))
  }

  /** The character's events in order, as links only (no payloads): enough to follow reverts. */
  lineageForCharacter(campaignId: string, characterId: string) {
    return this.db.rollEvent.findMany({
      where: { campaignId, characterId },
      orderBy: { seq: 'asc' },
      select: { id: true, seq: true, type: true, visibility: true, causationId: true },
    })
  }

  allForCharacter(campaignId: string, characterId: string) {
    return this.db.rollEvent.findMany({ where: { campaignId, characterId }, orderBy: { seq: 'asc' } })
  }
}

/**
 * The event `record` writes, at `seq` 0 until the write takes the campaign's next number: its
 * payload names the character as the change leaves it.
 */
export function recordedEvent(event: NewEvent, change: CharacterChange | CampaignChange, occurredAt: Date): RollEvent {
  const characterName = isCharacterChange(change) ? change.name : null
  const payload = { ...event.payload, characterName } as Prisma.JsonObject
  return { ...event, payload, seq: 0n, occurredAt }
}

function isCharacterChange(change: CharacterChange | CampaignChange): change is CharacterChange {
  return 'readVersion' in change
}

/**
 * The statement behind `EventRepository.record` (its comment says what it does); the benchmark
 * hands the same text to pgbench (bench/write-cost.ts). The event's listings are rendered here,
 * at `seq` 0, and cut where the number goes: the statement puts the number it takes in between.
 */
export function recordStatement(event: RollEvent, change: CharacterChange | CampaignChange): Prisma.Sql {
  const { listing, publicListing } = eventListings(event)
  const [listingHead, listingTail] = aroundSeq(listing)
  const [publicHead, publicTail] = publicListing === null ? [null, null] : aroundSeq(publicListing)
  const subject = isCharacterChange(change) ? characterSubject(event, change) : campaignSubject(event, change)
  return Prisma.sql`
      WITH ${subject.saved}next AS (
        ${subject.next}
      ), appended AS (
        INSERT INTO "roll_events" ("id", "campaign_id", "seq", "character_id", "type", "ruleset", "visibility",
          "actor", "payload", "causation_id", "idempotency_key", "occurred_at", "listing", "public_listing")
        SELECT ${event.id}::uuid, next."id", next."last_seq", ${subject.characterId},
          ${event.type}, ${event.ruleset}, ${event.visibility}, ${JSON.stringify(event.actor)}::jsonb,
          ${subject.payload},
          ${event.causationId}::uuid, ${event.idempotencyKey}, ${event.occurredAt}::timestamptz,
          ${listingHead}::text || next."last_seq" || ${listingTail}::text,
          ${publicHead}::text || next."last_seq" || ${publicTail}::text
        FROM next${subject.joined}
        RETURNING "id", "campaign_id", "seq", "type", "visibility"
      ), queued AS (
        INSERT INTO "webhook_deliveries" ("id", "campaign_id", "endpoint_id", "event_id", "event_seq", "event_type")
        SELECT nerve_uuid_v7(), e."campaign_id", e."id", a."id", a."seq", a."type"
        FROM appended a JOIN "webhook_endpoints" e ON e."campaign_id" = a."campaign_id"
        WHERE e."enabled"
          AND ${endpointWants(
            { eventTypes: Prisma.raw('e."event_types"'), includeGmEvents: Prisma.raw('e."include_gm_events"') },
            { type: Prisma.raw('a."type"'), visibility: Prisma.raw('a."visibility"') },
          )}
      )
      ${subject.answer}`
}

/** The parts of `recordStatement` that depend on what the event is about (`EventType.scope`). */
interface Subject {
  /** A CTE ("saved", ending in a comma) written before the sequence number is taken, or nothing. */
  saved: Prisma.Sql
  /** The campaign's update that takes the next sequence number, only if the write may go ahead. */
  next: Prisma.Sql
  payload: Prisma.Sql
  characterId: Prisma.Sql
  /** What the event's insert reads besides "next". */
  joined: Prisma.Sql
  /** The statement's one row: a `RecordedRow`, or for a campaign's event its `seq` alone. */
  answer: Prisma.Sql
}

/**
 * A character's event saves the character first ("saved"), which takes the sequence number only
 * when it wrote, and takes its sheets from that write: the sheet travels once.
 */
function characterSubject(event: RollEvent, change: CharacterChange): Subject {
  const { sheetBefore, sheetAfter, ...parts } = event.payload as unknown as EventPayload
  return {
    saved: Prisma.sql`saved AS (${change.readVersion === 0 ? insertCharacter(event, change) : updateCharacter(event, change)}
      ), `,
    next: Prisma.sql`UPDATE "campaigns" SET "last_seq" = "last_seq" + 1
        WHERE "id" = ${event.campaignId}::uuid AND EXISTS (SELECT FROM saved) RETURNING "id", "last_seq"`,
    payload: Prisma.sql`${JSON.stringify(parts)}::jsonb || jsonb_build_object(
            'sheetBefore', CASE WHEN ${sheetBefore !== null}::boolean THEN saved."sheet_before" END,
            'sheetAfter', saved."sheet")`,
    characterId: Prisma.sql`saved."id"`,
    joined: Prisma.sql`, saved`,
    answer: Prisma.sql`SELECT saved."id", saved."campaign_id" AS "campaignId", saved."name", saved."version",
        saved."created_at" AS "createdAt", saved."updated_at" AS "updatedAt", saved."archived_at" AS "archivedAt",
        appended."seq"::text AS "seq"
      FROM saved, appended`,
  }
}

/** A campaign's event saves the campaign's name and settings with its sequence number, while they are those the command read. */
function campaignSubject(event: RollEvent, change: CampaignChange): Subject {
  return {
    saved: Prisma.empty,
    next: Prisma.sql`UPDATE "campaigns" SET "last_seq" = "last_seq" + 1, "name" = ${change.name},
          "settings" = ${JSON.stringify(change.settings)}::jsonb, "updated_at" = now()
        WHERE "id" = ${event.campaignId}::uuid AND "name" = ${change.read.name}
          AND "settings" = ${JSON.stringify(change.read.settings)}::jsonb
        RETURNING "id", "last_seq"`,
    payload: Prisma.sql`${JSON.stringify(event.payload)}::jsonb`,
    characterId: Prisma.sql`NULL::uuid`,
    joined: Prisma.empty,
    answer: Prisma.sql`SELECT appended."seq"::text AS "seq" FROM appended`,
  }
}

/** A listing rendered at `seq` 0, in two around the 0: the id before it is a UUID, so the first `"seq":` is the field. */
function aroundSeq(listing: string): [string, string] {
  const at = listing.indexOf('"seq":0') + '"seq":'.length
  return [listing.slice(0, at), listing.slice(at + 1)]
}

function updateCharacter(event: RollEvent, change: CharacterChange): Prisma.Sql {
  const setsArchive = change.archivedAt !== undefined
  return Prisma.sql`
        UPDATE "characters" c
        SET "sheet" = ${JSON.stringify(change.sheet)}::jsonb,
            "public_sheet" = ${change.publicSheet === null ? null : JSON.stringify(change.publicSheet)}::jsonb,
            "name" = ${change.name},
            "archived_at" = CASE WHEN ${setsArchive}::boolean THEN ${change.archivedAt ?? null}::timestamptz ELSE c."archived_at" END,
            "version" = c."version" + 1,
            "updated_at" = now()
        -- "prev" is read in the statement's snapshot: the row as it was until this update.
        FROM "characters" prev
        WHERE c."id" = ${event.characterId}::uuid AND c."version" = ${change.readVersion} AND prev."id" = c."id"
        RETURNING c."id", c."campaign_id", c."name", c."version", c."created_at", c."updated_at", c."archived_at",
          c."sheet", prev."sheet" AS "sheet_before"`
}

function insertCharacter(event: RollEvent, change: CharacterChange): Prisma.Sql {
  return Prisma.sql`
        INSERT INTO "characters" ("id", "campaign_id", "name", "sheet", "public_sheet", "version")
        VALUES (${event.characterId}::uuid, ${event.campaignId}::uuid, ${change.name}, ${JSON.stringify(change.sheet)}::jsonb,
          ${change.publicSheet === null ? null : JSON.stringify(change.publicSheet)}::jsonb, 1)
        RETURNING "id", "campaign_id", "name", "version", "created_at", "updated_at", "archived_at",
          "sheet", NULL::jsonb AS "sheet_before"`
}
