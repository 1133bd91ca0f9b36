import type { Campaign, Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

export interface NewCampaign {
  id: string
  name: string
  ruleset: string
  settings: Prisma.InputJsonObject
  /** An imported campaign starts with its whole history: the last sequence number it holds. */
  lastSeq?: number
}

export class CampaignRepository {
  /** `lockRows`: inside a transaction, `forCommand` locks the row it reads until the transaction ends. */
  constructor(
    private readonly db: Db,
    private readonly lockRows: boolean,
  ) {}

  create(campaign: NewCampaign) {
    return this.db.campaign.create({ data: campaign })
  }

  /**
   * Until the transaction ends no event can be appended to the campaign: each takes its sequence
   * number by updating this row, which the share lock holds still. What the transaction reads
   * next is then the campaign as of its latest event.
   */
  async holdSequence(id: string) {
    await this.db.$queryRaw`SELECT 1 FROM "campaigns" WHERE "id" = ${id}::uuid FOR SHARE`
  }

  findActive(id: string) {
    return this.db.campaign.findFirst({ where: { id, deletedAt: null } })
  }

  /** The campaign a command on it changes (its name and settings), locked inside a transaction as `CharacterRepository.forCommand` locks a character. */
  async forCommand(id: string): Promise<Campaign | undefined> {
    if (!this.lockRows) return (await this.findActive(id)) ?? undefined
    const [row] = await this.db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "campaigns" WHERE "id" = ${id}::uuid AND "deleted_at" IS NULL FOR UPDATE`
    return row ? ((await this.findActive(id)) ?? undefined) : undefined
  }

  update(id: string, changes: { name?: string; settings?: Prisma.InputJsonObject }) {
    return this.db.campaign.update({ where: { id }, data: { ...changes, updatedAt: new Date() } })
  }

  markDeleted(id: string) {
    return this.db.campaign.update({ where: { id }, data: { deletedAt: new Date() } })
  }
}
