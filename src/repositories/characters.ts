import { Prisma } from '../generated/prisma/client.js'
import type { Db, RawSql } from './db.js'
import { prepared } from '../db/prepared.js'

/** The character a command changes, as it read it. */
export interface CommandCharacter {
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
  /** `lockRows`: inside a transaction, `forCommand` locks the row it reads until the transaction ends. */
  constructor(
    private readonly db: Db,
    private readonly sql: RawSql,
    private readonly lockRows: boolean,
  ) {}

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

  /**
   * The character as a command reads it before deciding. Outside a transaction it is a plain
   * read, and the command's write goes ahead only while the row is still at the version read
   * (`EventRepository.record`). Inside one (`lockRows`) the row stays locked until the
   * transaction ends, so commands on one character run one at a time.
   */
  async forCommand(campaignId: string, id: string): Promise<CommandCharacter | undefined> {
    const [row] = await this.sql<CommandCharacter>(prepared(forCommandStatement(campaignId, id, this.lockRows)))
    return row
  }
}

/** The statement behind `CharacterRepository.forCommand`; the benchmark hands the same text to pgbench (bench/write-cost.ts). */
export function forCommandStatement(campaignId: string, id: string, lockRow: boolean): Prisma.Sql {
  return Prisma.sql`
    SELECT "id", "name", "sheet", "public_sheet" AS "publicSheet", "version", "archived_at" AS "archivedAt"
    FROM "characters" WHERE "id" = ${id}::uuid AND "campaign_id" = ${campaignId}::uuid
    ${lockRow ? Prisma.sql`FOR UPDATE` : Prisma.empty}`
}
