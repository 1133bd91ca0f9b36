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
}
