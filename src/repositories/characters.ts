import { Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

export interface LockedCharacter {
  id: string
  name: string
  sheet: unknown
  /** The sheet players see, or null when they see `sheet`. */
  publicSheet: unknown
  version: number
  archivedAt: Date | null
}

export interface ImportedCharacter {
  id: string
  campaignId: string
  name: string
  sheet: unknown
  version: number
  createdAt: Date
  archivedAt: Date | null
}

export class CharacterRepository {
  constructor(private readonly db: Db) {}

  /** Inserted at version 0: saving it with its `character.created` event makes a new character version 1. */
  create(character: { id: string; campaignId: string; name: string; sheet: unknown }) {
    return this.db.character.create({
      data: { ...character, sheet: character.sheet as Prisma.InputJsonValue, version: 0 },
    })
  }

  /**
   * Characters of an imported campaign, as its archive lists them. Their history follows them
   * (`EventRepository.appendImported`) in the same transaction.
   */
  async createImported(characters: ImportedCharacter[]) {
    await this.db.character.createMany({
      data: characters.map((character) => ({ ...character, sheet: character.sheet as Prisma.InputJsonValue })),
    })
  }

  /** The sheet players see of an imported character, worked out by replaying its history. */
  async setPublicSheet(id: string, publicSheet: unknown) {
    await this.db.character.update({ where: { id }, data: { publicSheet: publicSheet as Prisma.InputJsonValue } })
  }

  find(campaignId: string, id: string) {
    return this.db.character.findFirst({ where: { campaignId, id } })
  }

  /** Every character's sheet, archived ones too (a revert can bring them back). */
  sheets(campaignId: string) {
    return this.db.character.findMany({ where: { campaignId }, select: { id: true, name: true, sheet: true } })
  }

  /** Every character, archived ones too, in the order they were created. */
  all(campaignId: string) {
    return this.db.character.findMany({ where: { campaignId }, orderBy: { id: 'asc' } })
  }

  /** Ascending by id (time-ordered), starting after a cursor; one extra row tells whether more follow. */
  list(campaignId: string, options: { after?: string | undefined; limit: number; includeArchived: boolean }) {
    return this.db.character.findMany({
      where: {
        campaignId,
        ...(options.after ? { id: { gt: options.after } } : {}),
        ...(options.includeArchived ? {} : { archivedAt: null }),
      },
      orderBy: { id: 'asc' },
      take: options.limit + 1,
    })
  }

  /** Locks the character row until the transaction ends: commands on one character run one at a time. */
  async lock(campaignId: string, id: string): Promise<LockedCharacter | undefined> {
    const [row] = await this.db.$queryRaw<LockedCharacter[]>(lockStatement(campaignId, id))
    return row
  }
}

/** The statement behind `CharacterRepository.lock`; the benchmark hands the same text to pgbench (bench/write-cost.ts). */
export function lockStatement(campaignId: string, id: string): Prisma.Sql {
  return Prisma.sql`
    SELECT "id", "name", "sheet", "public_sheet" AS "publicSheet", "version", "archived_at" AS "archivedAt"
    FROM "characters" WHERE "id" = ${id}::uuid AND "campaign_id" = ${campaignId}::uuid
    FOR UPDATE`
}
