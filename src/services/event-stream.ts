import type { Principal } from '../plugins/app/auth.js'
import type { Store } from '../repositories/index.js'
import type { EventFeed } from './event-feed.js'
import { audienceOf } from './public-view.js'
import { eventView, type EventView } from './views.js'

const PAGE = 100
/** Events committed by other instances are found by polling at this pace. */
const POLL_MS = 1_000
const HEARTBEAT_MS = 15_000

export interface StreamSink {
  event(event: EventView): void
  heartbeat(): void
}

/** The campaign's last sequence number: a stream without a resume point starts after it. */
export async function currentSeq(store: Store, principal: Principal): Promise<number> {
  const campaign = await store.campaigns.findActive(principal.campaign.id)
  return Number(campaign?.lastSeq ?? 0)
}

/**
 * Sends every event after `after`, in order, then waits for more until `signal` aborts. A
 * commit on this instance wakes it at once; other instances' commits within a poll interval.
 */
export async function streamEvents(
  store: Store,
  feed: EventFeed,
  principal: Principal,
  after: number,
  sink: StreamSink,
  signal: AbortSignal,
): Promise<void> {
  const audience = audienceOf(principal)
  let cursor = after
  let lastWrite = Date.now()
  while (!signal.aborted) {
    const rows = await store.events.list(principal.campaign.id, {
      after: cursor,
      limit: PAGE,
      publicOnly: principal.role !== 'gm',
    })
    for (const row of rows.slice(0, PAGE)) {
      sink.event(eventView(row, audience))
      cursor = Number(row.seq)
      lastWrite = Date.now()
    }
    if (rows.length > PAGE) continue
    if (Date.now() - lastWrite >= HEARTBEAT_MS) {
      sink.heartbeat()
      lastWrite = Date.now()
    }
    await nextWake(feed, principal.campaign.id, signal)
  }
}

function nextWake(feed: EventFeed, campaignId: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      unsubscribe()
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, POLL_MS)
    const unsubscribe = feed.subscribe(campaignId, done)
    signal.addEventListener('abort', done)
  })
}
