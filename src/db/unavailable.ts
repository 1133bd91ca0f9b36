/**
 * Tells a database that is down, restarting or saturated from every other database error, so
 * such a request is answered 503 (retry shortly) rather than 500 (our bug). Errors arrive as
 * Prisma errors wrapping the driver adapter's error, or as `pg` and socket errors unwrapped.
 */

/** Prisma: can't reach the server, timed out, server closed the connection, pool timeout, transaction could not start. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028'])

/** What `@prisma/adapter-pg` calls a connection it could not make or lost. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'])

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/**
 * SQLSTATEs: class 08 (connection exception), 53300 too many connections, 57P01–57P03 (the
 * server is shutting down, crashed, or still starting), 25006 (a write reached a read-only
 * server: a standby, or a primary demoted during a failover, until the endpoint moves).
 */
function unavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') ||
    code === '53300' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '25006'
  )
}

/** `pg` and `pg-pool` report a lost or never-made connection as a plain Error. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  "Can't reach database server",
]

interface ErrorLike {
  code?: unknown
  kind?: unknown
  message?: unknown
  cause?: unknown
  meta?: { driverAdapterError?: unknown }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  // Follow causes a few levels down: Prisma error → adapter error → driver error.
  while (queue.length > 0 && seen.size < 8) {
    const current = queue.shift()
    if (current === null || typeof current !== 'object' || seen.has(current)) continue
    seen.add(current)
    const candidate = current as ErrorLike
    const code = typeof candidate.code === 'string' ? candidate.code : undefined
    if (code !== undefined) {
      if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code)) return true
      if (/^[0-9A-Z]{5}$/.test(code) && unavailableSqlState(code)) return true
    }
    if (typeof candidate.kind === 'string' && ADAPTER_KINDS.has(candidate.kind)) return true
    if (
      typeof candidate.message === 'string' &&
      PG_MESSAGES.some((text) => (candidate.message as string).includes(text))
    )
      return true
    queue.push(candidate.cause, candidate.meta?.driverAdapterError)
  }
  return false
}
