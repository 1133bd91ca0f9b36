import type { Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

export interface NewCampaign {
  id: string
  name: string
  ruleset: string
  settings: Prisma.InputJsonObject
}

export class CampaignRepository {
  constructor(private readonly db: Db) {}

  create(campaign: NewCampaign) {
    return this.db.campaign.create({ data: campaign })
  }

  findActive(id: string) {
    return this.db.campaign.findFirst({ where: { id, deletedAt: null } })
  }

  update(id: string, changes: { name?: string; settings?: Prisma.InputJsonObject }) {
    return this.db.campaign.update({ where: { id }, data: { ...changes, updatedAt: new Date() } })
  }

  markDeleted(id: string) {
    return this.db.campaign.update({ where: { id }, data: { deletedAt: new Date() } })
  }

  /**
   * Hands out the campaign's next event sequence number. The row lock it takes is held to
   * commit, so concurrent commands in one campaign get consecutive numbers with no gaps.
   */
  async nextSeq(id: string): Promise<bigint> {
    const [row] = await this.db.$queryRaw<{ last_seq: bigint }[]>`
      UPDATE "campaigns" SET "last_seq" = "last_seq" + 1 WHERE "id" = ${id}::uuid RETURNING "last_seq"`
    if (!row) throw new Error(`campaign ${id} vanished during a command`)
    return row.last_seq
  }
}
