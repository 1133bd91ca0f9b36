import type { Database } from '../db/database.js'
import type { EventFilter } from './events.js'

/**
 * Pages of a campaign's history, already rendered as the API's JSON, one event per row.
 *
 * Each event's listing was rendered when it was written (the column `listing`, written by
 * `EventRepository.record`), so a page copies text, is never parsed into objects and serialised
 * again, and costs the same at any depth: each row is found through the (campaign, seq) or
 * (campaign, character, seq) index.
 *
 * Read through the driver, not Prisma: Prisma's raw queries keep recent results reachable long
 * enough that the garbage collector moves every page's strings to the old generation, which
 * then needs a full collection (a 10–20 ms stall) every few hundred milliseconds under load.
 * Read directly, a page is garbage as soon as it is sent (docs/BENCHMARKS.md, target 3).
 */
export class EventPageRepository {
  constructor(private readonly database: Pick<Database, 'query'>) {}

  /** Up to `filter.limit` + 1 events after `filter.after`; with `sheets`, each ends with its two sheets. */
  list(campaignId: string, filter: EventFilter, options: { sheets: boolean }) {
    const { text, params } = pageStatement(campaignId, filter, options)
    return this.database.query<{ seq: number; json: string }>(text, params)
  }

  /**
   * `list` for an archive (src/history/archive-export.ts): every event as the GM's history
   * shows it, sheets included, and beside it the rule settings it was resolved with as JSON text
   * (null for the events that record none), which replaying it needs and the history never shows.
   */
  listWithSettings(campaignId: string, filter: EventFilter) {
    const { text, params } = pageStatement(campaignId, filter, { sheets: true, settings: true })
    return this.database.query<{ seq: number; json: string; settings: string | null }>(text, params)
  }
}

interface PageOptions {
  /** Each event ends with its two sheets. */
  sheets: boolean
  /** With `sheets`: each row carries the event's rule settings too. */
  settings?: boolean
}

/** The statement behind `EventPageRepository.list`, with its bind parameters (bench/history.ts times it alone). */
export function pageStatement(campaignId: string, filter: EventFilter, { sheets, settings = false }: PageOptions) {
  const params: unknown[] = [campaignId]
  const where = ['"campaign_id" = $1::uuid']
  const bind = (value: unknown) => `$${params.push(value)}`
  if (filter.after !== undefined) where.push(`"seq" > ${bind(filter.after)}::bigint`)
  if (filter.through !== undefined) where.push(`"seq" <= ${bind(filter.through)}::bigint`)
  if (filter.characterId) where.push(`"character_id" = ${bind(filter.characterId)}::uuid`)
  if (filter.type) where.push(`"type" = ${bind(filter.type)}`)
  if (filter.publicOnly) where.push(`"visibility" = 'public'`)
  // Players see a public event as the public view stored beside it, when it has one
  // (src/services/public-view.ts): its own listing and its player-side sheets.
  const listing = filter.publicOnly ? `coalesce("public_listing", "listing")` : `"listing"`
  const sheet = (name: string) =>
    filter.publicOnly ? `coalesce(p."publicView" -> '${name}', p."${name}")` : `p."${name}"`
  // The listing ends with its object's closing brace; the sheets take its place. Both come
  // from one decompression of the payload (`jsonb_to_record`), not one per `->`.
  // With `settings` (an archive's page), the settings come from the same decompression.
  const settingsColumn = settings ? ', p."settings"::text AS "settings"' : ''
  const settingsField = settings ? ', "settings" jsonb' : ''
  const select = sheets
    ? `SELECT "seq"::integer AS "seq", left(${listing}, -1)
         || ',"sheetBefore":' || coalesce(${sheet('sheetBefore')}::text, 'null')
         || ',"sheetAfter":' || coalesce(${sheet('sheetAfter')}::text, 'null') || '}' AS "json"${settingsColumn}
       FROM "roll_events",
         jsonb_to_record("payload") AS p("sheetBefore" jsonb, "sheetAfter" jsonb, "publicView" jsonb${settingsField})`
    : `SELECT "seq"::integer AS "seq", ${listing} AS "json" FROM "roll_events"`
  const limit = bind(filter.limit + 1)
  return { text: `${select} WHERE ${where.join(' AND ')} ORDER BY "roll_events"."seq" LIMIT ${limit}::integer`, params }
}
