import { usableKey, type UsableKey, type UsableKeyRow } from './api-keys.js'
import type { Db } from './db.js'

export interface NewStreamTicket {
  hash: string
  campaignId: string
  keyId: string
  expiresAt: Date
}

export class StreamTicketRepository {
  constructor(private readonly db: Db) {}

  create(ticket: NewStreamTicket) {
    return this.db.streamTicket.create({ data: ticket })
  }

  /** Tickets minted and never used; swept as new ones are minted. */
  deleteExpired(now: Date) {
    return this.db.streamTicket.deleteMany({ where: { expiresAt: { lte: now } } })
  }

  /**
   * Uses a ticket up and returns the key that minted it, if that key still opens its campaign.
   * Deleting the row is what makes a ticket single-use: of two requests racing with the same
   * ticket, one deletes it and the other finds nothing.
   */
  async consume(hash: string, now: Date): Promise<UsableKey | null> {
    const [row] = await this.db.$queryRaw<UsableKeyRow[]>`
      WITH ticket AS (DELETE FROM "stream_tickets" WHERE "hash" = ${hash} RETURNING "key_id", "expires_at")
      SELECT k."id", k."campaign_id" AS "campaignId", k."role", k."character_ids"::text[] AS "characterIds",
        c."name", c."ruleset", c."settings"
      FROM ticket t
        JOIN "api_keys" k ON k."id" = t."key_id"
        JOIN "campaigns" c ON c."id" = k."campaign_id"
      WHERE t."expires_at" > ${now} AND k."revoked_at" IS NULL AND c."deleted_at" IS NULL`
    return row ? usableKey(row) : null
  }
}
