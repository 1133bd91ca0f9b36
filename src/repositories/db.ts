import type { PrismaClient } from '../generated/prisma/client.js'
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace.js'

/** Either the client or the transaction a command runs in: repositories work with both. */
export type Db = PrismaClient | TransactionClient
