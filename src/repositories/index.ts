import type { Database } from '../db/database.js'
import { ApiKeyRepository } from './api-keys.js'
import { CampaignRepository } from './campaigns.js'
import { CharacterRepository } from './characters.js'
import type { Db, RawSql } from './db.js'
import { EventPageRepository } from './event-pages.js'
import { EventRepository } from './events.js'
import { IdempotencyRepository } from './idempotency.js'
import { StreamTicketRepository } from './stream-tickets.js'
import { WebhookRepository } from '../webhooks/repository.js'

export interface Repositories {
  campaigns: CampaignRepository
  apiKeys: ApiKeyRepository
  characters: CharacterRepository
  events: EventRepository
  idempotency: IdempotencyRepository
  streamTickets: StreamTicketRepository
  webhooks: WebhookRepository
}

function repositoriesOn(db: Db, sql: RawSql, inTransaction: boolean): Repositories {
  return {
    campaigns: new CampaignRepository(db, inTransaction),
    apiKeys: new ApiKeyRepository(db, sql),
    characters: new CharacterRepository(db, sql, inTransaction),
    events: new EventRepository(db, sql),
    idempotency: new IdempotencyRepository(db),
    streamTickets: new StreamTicketRepository(db),
    webhooks: new WebhookRepository(db),
  }
}

export interface Store extends Repositories {
  /** History pages, read outside any transaction. */
  eventPages: EventPageRepository
  /**
   * Runs work in one database transaction; everything it writes commits together or not at all.
   * It may last `timeoutMs` (30 s unless said otherwise) before it is rolled back.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>, options?: { timeoutMs?: number }): Promise<T>
}

export function createStore(database: Pick<Database, 'prisma' | 'query'>): Store {
  const { prisma } = database
  const throughDriver: RawSql = (statement) => database.query(statement.text, statement.values, statement.name)
  return {
    ...repositoriesOn(prisma, throughDriver, false),
    eventPages: new EventPageRepository(database),
    transaction: (work, options) =>
      // Waiting for a character's row lock counts against the timeout: many rolls on one
      // character queue up behind each other.
      prisma.$transaction((tx) => work(repositoriesOn(tx, (statement) => tx.$queryRaw(statement.sql), true)), {
        maxWait: 10_000,
        timeout: options?.timeoutMs ?? 30_000,
      }),
  }
}
