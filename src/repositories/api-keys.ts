import type { KeyRole } from '../lib/api-keys.js'
import type { Db } from './db.js'

export interface NewApiKey {
  id: string
  campaignId: string
  role: KeyRole
  label?: string | undefined
  prefix: string
  hash: string
  characterIds?: string[]
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  create(key: NewApiKey) {
    return this.db.apiKey.create({ data: key })
  }

  /** A live key of a live campaign, with its campaign. */
  findUsable(hash: string) {
    return this.db.apiKey.findFirst({
      where: { hash, revokedAt: null, campaign: { deletedAt: null } },
      include: { campaign: true },
    })
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
