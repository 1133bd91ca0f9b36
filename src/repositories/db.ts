import type { PrismaClient } from '../generated/prisma/client.js'
import type { PreparedSql } from '../db/prepared.js'
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace.js'

/** Either the client or the transaction a command runs in: repositories work with both. */
export type Db = PrismaClient | TransactionClient

/**
 * Runs one of the statements every roll sends (marked `prepared`, src/db/prepared.ts) and
 * answers its rows. Outside a transaction it goes through the driver, not Prisma: Prisma's
 * handling of a raw query cost the server more than the driver's own work (docs/BENCHMARKS.md);
 * inside one, through the transaction. A `bigint` column comes back as a string from the
 * driver, so these statements return none.
 */
export type RawSql = <Row>(statement: PreparedSql) => Promise<Row[]>
