import { Prisma } from '../generated/prisma/client.js'
import { prepared } from '../db/prepared.js'
import type { KeyRole } from '../lib/secrets.js'
import type { Db, RawSql } from './db.js'

export interface NewApiKey {
  id: string
  campaignId: string
  role: KeyRole
  label?: string | undefined
  prefix: string
  hash: string
  characterIds?: string[]
}

/** A live key of a live campaign, with what a request needs of that campaign. */
export interface UsableKey {
  id: string
  campaignId: string
  role: string
  characterIds: string[]
  campaign: { id: string; name: string; ruleset: string; settings: unknown }
}

/** Whether a key still opens its campaign, and if not, why. */
export type KeyStanding = 'usable' | 'revoked' | 'closed'

/** A usable key as the queries below read it: the campaign's columns beside the key's. */
export type UsableKeyRow = Omit<UsableKey, 'campaign'> & { name: string; ruleset: string; settings: unknown }

export function usableKey({ name, ruleset, settings, ...key }: UsableKeyRow): UsableKey {
  return { ...key, characterIds: key.characterIds ?? [], campaign: { id: key.campaignId, name, ruleset, settings } }
}

export class ApiKeyRepository {
  constructor(
    private readonly db: Db,
    private readonly sql: RawSql,
  ) {}

  create(key: NewApiKey) {
    return this.db.apiKey.create({ data: key })
  }

  /** Every authenticated request starts here: one indexed join, read as plain rows. */
  async findUsable(hash: string): Promise<UsableKey | null> {
    const [row] = await this.sql<UsableKeyRow>(
      prepared(Prisma.sql`
        SELECT k."id", k."campaign_id" AS "campaignId", k."role", k."character_ids"::text[] AS "characterIds",
          c."name", c."ruleset", c."settings"
        FROM "api_keys" k JOIN "campaigns" c ON c."id" = k."campaign_id"
        WHERE k."hash" = ${hash} AND k."revoked_at" IS NULL AND c."deleted_at" IS NULL`),
    )
    return row ? usableKey(row) : null
  }

  /** Re-checked by every open event stream about once a second: one primary-key join. */
  async standing(id: string): Promise<KeyStanding> {
    const [row] = await this.db.$queryRaw<{ revoked: boolean; closed: boolean }[]>`
      SELECT k."revoked_at" IS NOT NULL AS "revoked", c."deleted_at" IS NOT NULL AS "closed"
      FROM "api_keys" k JOIN "campaigns" c ON c."id" = k."campaign_id"
      WHERE k."id" = ${id}::uuid`
    if (row?.closed) return 'closed'
    return !row || row.revoked ? 'revoked' : 'usable'
  }

  list(campaignId: string) {
    return this.db.apiKey.findMany({ where: { campaignId }, orderBy: { id: 'asc' } })
  }

  find(campaignId: string, id: string) {
    return this.db.apiKey.findFirst({ where: { campaignId, id } })
  }

  revoke(id: string) {
    return this.db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } })
  }
}
