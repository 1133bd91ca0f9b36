import { createServer, type Server } from 'node:http'

interface Arrival {
  path: string
  id: string
  at: number
  occurredAt: number
  lag: number
}

/** A local webhook consumer: answers 204 at once and notes when each delivery arrived and how late. */
export interface Receiver {
  url: string
  /** Deliveries received so far (retries and duplicates included). */
  count(): number
  /** Distinct `webhook-id`s received. */
  distinct(): number
  firstAt(): number
  lastAt(): number
  /** Commit → arrival lag (ms) of deliveries whose event occurred at or after `since` (epoch ms). */
  lagsSince(since: number): number[]
  /** Every delivery received since the last reset: its path (one per endpoint), when, and how late. */
  arrivals(): Arrival[]
  reset(): void
  close(): Promise<void>
}

export async function startReceiver(port: number): Promise<Receiver> {
  let count = 0
  let first = 0
  let last = 0
  const ids = new Set<string>()
  const lags: { occurredAt: number; lag: number }[] = []
  const arrivals: Arrival[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const now = Date.now()
      count++
      first ||= now
      last = now
      const id = String(request.headers['webhook-id'])
      ids.add(id)
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string }
      const occurredAt = Date.parse(timestamp)
      lags.push({ occurredAt, lag: now - occurredAt })
      arrivals.push({ path: request.url ?? '', id, at: now, occurredAt, lag: now - occurredAt })
      response.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}/nerve-webhooks`,
    count: () => count,
    distinct: () => ids.size,
    firstAt: () => first,
    lastAt: () => last,
    arrivals: () => arrivals,
    lagsSince: (since) => lags.filter((entry) => entry.occurredAt >= since).map((entry) => entry.lag),
    reset() {
      count = 0
      first = 0
      last = 0
      ids.clear()
      lags.length = 0
      arrivals.length = 0
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
