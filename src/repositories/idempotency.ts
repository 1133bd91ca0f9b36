import type { Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** An in-flight claim older than this was left by a crashed instance: the key is free again. */
const ABANDONED_AFTER_MS = 60 * 1000

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** Claims the key for one request; false when a live record already holds it. */
  async claim(campaignId: string, key: string, requestHash: string): Promise<boolean> {
    await this.db.idempotencyRecord.deleteMany({
      where: {
        campaignId,
        key,
        OR: [
          { expiresAt: { lt: new Date() } },
          { state: 'in-flight', createdAt: { lt: new Date(Date.now() - ABANDONED_AFTER_MS) } },
        ],
      },
    })
    const inserted = await this.db.$executeRaw`
      INSERT INTO "idempotency_records" ("campaign_id", "key", "request_hash", "state", "expires_at")
      VALUES (${campaignId}::uuid, ${key}, ${requestHash}, 'in-flight', ${new Date(Date.now() + IDEMPOTENCY_WINDOW_MS)})
      ON CONFLICT ("campaign_id", "key") DO NOTHING`
    return inserted === 1
  }

  find(campaignId: string, key: string) {
    return this.db.idempotencyRecord.findUnique({ where: { campaignId_key: { campaignId, key } } })
  }

  complete(campaignId: string, key: string, response: { status: number; body: unknown }) {
    return this.db.idempotencyRecord.update({
      where: { campaignId_key: { campaignId, key } },
      data: { state: 'done', responseStatus: response.status, responseBody: response.body as Prisma.InputJsonValue },
    })
  }

  release(campaignId: string, key: string) {
    return this.db.idempotencyRecord.deleteMany({ where: { campaignId, key, state: 'in-flight' } })
  }
}
