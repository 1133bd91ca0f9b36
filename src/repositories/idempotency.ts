import type { Prisma } from '../generated/prisma/client.js'
import type { Db } from './db.js'

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * Earlier versions committed an `in-flight` claim before running the command; one older than
 * this was left by a crashed instance and no longer holds its key.
 */
const ABANDONED_AFTER_MS = 60 * 1000

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a command's response under its key, as the last write of the command's transaction:
   * false when another record holds the key. A duplicate still running holds the key only with
   * its uncommitted row, so this waits for that transaction to end: a commit takes the key, a
   * rollback (a failed command, a crashed process, a dropped connection) leaves it free.
   */
  async record(
    campaignId: string,
    key: string,
    requestHash: string,
    response: { status: number; body: unknown },
  ): Promise<boolean> {
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
    const { count } = await this.db.idempotencyRecord.createMany({
      data: {
        campaignId,
        key,
        requestHash,
        state: 'done',
        responseStatus: response.status,
        responseBody: response.body as Prisma.InputJsonValue,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_WINDOW_MS),
      },
      skipDuplicates: true,
    })
    return count === 1
  }

  /** The live record holding the key, if any. */
  find(campaignId: string, key: string) {
    return this.db.idempotencyRecord.findFirst({ where: { campaignId, key, expiresAt: { gte: new Date() } } })
  }
}
