import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { PrismaClient } from '../generated/prisma/client.js'
import { openEmbedded } from './pglite.js'
import { statementName } from './prepared.js'

/** One connection held for a while: what migrations need to keep their advisory lock. */
export interface SqlSession {
  /** Runs a script of one or more statements, without parameters. */
  exec(sql: string): Promise<void>
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>
}

/** The PostgreSQL connection pool's state, for metrics. */
interface PoolStats {
  /** Connections open, busy or idle. */
  total: number
  idle: number
  /** Requests queued for a connection. */
  waiting: number
}

export interface Database {
  readonly engine: 'postgres' | 'pglite'
  readonly prisma: PrismaClient
  /** Null on PGlite, which has one in-process connection and no pool. */
  poolStats(): PoolStats | null
  /**
   * One statement through the driver itself, not Prisma, on a pooled connection (on PGlite, its
   * one connection, once any transaction in progress has ended), prepared under `name` when
   * given one (the name `prepared` gave it, src/db/prepared.ts). For the statements every roll sends outside a transaction
   * (src/repositories/db.ts, `RawSql`) and the reads whose results Prisma's raw queries keep
   * alive too long (src/repositories/event-pages.ts).
   */
  query<Row>(sql: string, params?: unknown[], name?: string): Promise<Row[]>
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T>
  /**
   * Calls `onNotification` for each NOTIFY on `channel` once its transaction commits, from any
   * process. On PostgreSQL through a connection of its own, outside the pool, opened again after
   * a loss (and then `onNotification` is called once, for what was missed). Returns how to stop.
   */
  listen(channel: string, onNotification: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without one, the embedded PGlite is used. */
  url?: string | undefined
  /** Where PGlite keeps its files; `memory://` keeps them in memory only. */
  dataDir: string
  poolSize?: number
  /**
   * How long to wait for a PostgreSQL connection, new or from the pool. Short, so requests fail
   * fast with 503 while the database is unreachable or saturated instead of piling up.
   */
  connectTimeoutMs?: number
  /**
   * Prepare the statements marked `prepared` by name, once per connection (the default). Off,
   * every statement is sent unnamed: what a pooler that does not keep a client on one server
   * connection needs (PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements?: boolean
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url
    ? openPostgres(
        options.url,
        options.poolSize ?? 10,
        options.connectTimeoutMs ?? 3_000,
        options.preparedStatements ?? true,
      )
    : await openPGlite(options.dataDir)
  return { ...database, close: once(() => database.close()) }
}

/** Closing twice (a failed start, then shutdown) must not fail the second time. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => (closing ??= close())
}

function openPostgres(
  connectionString: string,
  max: number,
  connectTimeoutMs: number,
  preparedStatements: boolean,
): Database {
  // Keepalive notices a server that vanished without closing its sockets (a crashed host).
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true })
  // A client losing its server (a restart, a failover) must not crash the process: idle ones
  // report to the pool, and a checked-out one (held by a transaction between two statements)
  // would otherwise emit an unhandled 'error'. Its next statement fails instead, the request
  // is answered 503, and the pool discards the broken client when it is released.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, preparedStatements ? { statementNameGenerator: statementName } : {}),
  })
  return {
    engine: 'postgres',
    prisma,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    query: async <Row>(sql: string, params?: unknown[], name?: string) =>
      (await submit(pool, statement(sql, params, (preparedStatements && name) || undefined))).rows as Row[],
    async withSession(work) {
      const client = await pool.connect()
      try {
        return await work({
          exec: async (sql) => void (await client.query(sql)),
          query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
        })
      } finally {
        client.release()
      }
    },
    listen: (channel, onNotification) => listenOnPostgres(connectionString, channel, onNotification),
    async close() {
      await prisma.$disconnect()
      await pool.end()
    },
  }
}

/**
 * A statement built from its text, which node-postgres takes as it is: given a config object
 * instead, it copies the object's every property descriptor on each query (`cloneQueryConfig`,
 * 1.4–1.9 % of a roll's CPU).
 */
function statement(text: string, values: unknown[] | undefined, name: string | undefined): pg.Query {
  const query = new pg.Query(text, values)
  if (name !== undefined) (query as pg.Query & { name?: string }).name = name
  return query
}

/**
 * `pool.query` with a ready query: the pool checks out a client, runs it, releases the client
 * (discarding it after an error) and settles its promise with the result, as for a config
 * object; pg's types only declare the client's form, which returns the query itself.
 */
function submit(pool: pg.Pool, query: pg.Query): Promise<pg.QueryResult> {
  return pool.query(query) as unknown as Promise<pg.QueryResult>
}

const LISTEN_RETRY_MS = 1_000

async function listenOnPostgres(
  connectionString: string,
  channel: string,
  onNotification: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined
  let stopped = false
  const again = () => {
    if (stopped || retry) return
    retry = setTimeout(() => {
      retry = undefined
      void connect().then((listening) => listening && onNotification())
    }, LISTEN_RETRY_MS)
    retry.unref()
  }
  const connect = async (): Promise<boolean> => {
    const next = new pg.Client({ connectionString, keepAlive: true })
    next.on('notification', (message) => message.channel === channel && onNotification())
    // A lost connection reports an error, then ends: listen again on a new one.
    next.on('error', () => {})
    next.once('end', again)
    try {
      await next.connect()
      await next.query(`LISTEN "${channel}"`)
      if (stopped) await next.end()
      client = next
      return !stopped
    } catch {
      await next.end().catch(() => {})
      again()
      return false
    }
  }
  await connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end().catch(() => {})
  }
}

async function openPGlite(dataDir: string): Promise<Database> {
  const { pglite, release } = await openEmbedded(dataDir)
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) })
  return {
    engine: 'pglite',
    prisma,
    poolStats: () => null,
    query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
    withSession: (work) =>
      work({
        exec: async (sql) => void (await pglite.exec(sql)),
        query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
      }),
    async listen(channel, onNotification) {
      const unlisten = await pglite.listen(channel, onNotification)
      // Closed first (a shutdown, a test taking the database away), it listens no more: nothing to undo.
      return async () => {
        if (!pglite.closed) await unlisten()
      }
    },
    async close() {
      await prisma.$disconnect()
      await pglite.close()
      await release()
    },
  }
}
