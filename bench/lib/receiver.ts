import { Worker } from 'node:worker_threads'

/** What the receiver notes of one delivery (bench/lib/receiver-thread.mjs sends them in batches). */
export interface Arrival {
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

/** Starts the receiver on its own thread (bench/lib/receiver-thread.mjs); arrivals reach this thread within ~10 ms. */
export async function startReceiver(port: number): Promise<Receiver> {
  const ids = new Set<string>()
  const arrivals: Arrival[] = []
  const thread = new Worker(new URL('./receiver-thread.mjs', import.meta.url), { workerData: { port } })
  await new Promise<void>((resolve, reject) => {
    thread.once('error', reject)
    thread.once('message', () => resolve())
  })
  thread.on('message', (batch: Arrival[] | string) => {
    if (typeof batch === 'string') return
    for (const arrival of batch) {
      ids.add(arrival.id)
      arrivals.push(arrival)
    }
  })
  return {
    url: `http://127.0.0.1:${port}/nerve-webhooks`,
    count: () => arrivals.length,
    distinct: () => ids.size,
    firstAt: () => arrivals.reduce((first, arrival) => Math.min(first, arrival.at), Infinity),
    lastAt: () => arrivals.reduce((last, arrival) => Math.max(last, arrival.at), 0),
    arrivals: () => arrivals,
    lagsSince: (since) => arrivals.filter((arrival) => arrival.occurredAt >= since).map((arrival) => arrival.lag),
    reset() {
      ids.clear()
      arrivals.length = 0
    },
    async close() {
      const closed = new Promise<void>((resolve) =>
        thread.on('message', (message) => message === 'closed' && resolve()),
      )
      thread.postMessage('close')
      await closed
      await thread.terminate()
    },
  }
}
