import { InvalidFieldError } from '../errors.js'
import type { Principal } from '../lib/principal.js'
import type { KeyStanding } from '../repositories/api-keys.js'
import type { Store } from '../repositories/index.js'
import type { EventFeed } from './feed.js'
import { audienceOf } from '../services/public-view.js'
import type { Event } from './event.js'
import { eventView } from './event.js'

const PAGE = 100
/** Events committed by other instances are found by polling at this pace. */
const POLL_MS = 1_000
const HEARTBEAT_MS = 15_000
/** An idle stream re-checks its key this often, so a revocation on another instance ends it too. */
const KEY_CHECK_MS = 1_000

export interface StreamSink {
  event(event: Event): void
  heartbeat(): void
  /** The last message: the key was revoked or the campaign closed. */
  ended(standing: Exclude<KeyStanding, 'usable'>): void
}

/** Where a client asks a stream to resume: after `seq`, as its field `name` at `pointer` says. */
export interface ResumeFrom {
  seq: number
  pointer: string
  name: string
}

/**
 * The `seq` a stream starts after: where the client resumes, or without one the campaign's last
 * (the stream then starts with the next new event). A `seq` beyond the last names no event of
 * the campaign (sequence numbers only grow): refused, rather than a stream that stays silent.
 */
export async function resumePoint(store: Store, principal: Principal, from: ResumeFrom | undefined): Promise<number> {
  const campaign = await store.campaigns.findActive(principal.campaign.id)
  const lastSeq = Number(campaign?.lastSeq ?? 0)
  if (from === undefined) return lastSeq
  if (from.seq > lastSeq) {
    throw new InvalidFieldError(
      from.pointer,
      `${from.name} ${from.seq} is beyond the campaign’s last seq (${lastSeq}): no event of this campaign has it, so the stream would stay silent. Resume after the last id you received, or leave it out to start with the next new event.`,
    )
  }
  return from.seq
}

/**
 * Sends every event after `after`, in order, then waits for more until `signal` aborts or the
 * key stops being usable. A commit, revocation or closing on this instance wakes it at once;
 * other instances' within a poll interval.
 *
 * Events are listed only while the key is usable, in the same snapshot, so none recorded after
 * a revocation is ever sent. An empty page may mean either, so the key is then looked up (at
 * most once a second, or at once when this instance revoked a key of the campaign).
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
  let checkedAt = Date.now()
  let accessChanged = false
  while (!signal.aborted) {
    const rows = await store.events.list(principal.campaign.id, {
      after: cursor,
      limit: PAGE,
      publicOnly: principal.role !== 'gm',
      whileUsable: principal.keyId,
    })
    if (rows.length === 0 && (accessChanged || Date.now() - checkedAt >= KEY_CHECK_MS)) {
      const standing = await store.apiKeys.standing(principal.keyId)
      if (standing !== 'usable') return sink.ended(standing)
      checkedAt = Date.now()
      accessChanged = false
    }
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
    if (await nextWake(feed, principal.campaign.id, signal)) accessChanged = true
  }
}

/** Resolves true when woken by a revocation or closing on this instance. */
function nextWake(feed: EventFeed, campaignId: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (accessChanged: boolean) => {
      clearTimeout(timer)
      unsubscribe()
      unsubscribeAccess()
      signal.removeEventListener('abort', woken)
      resolve(accessChanged)
    }
    const woken = () => done(false)
    const timer = setTimeout(woken, POLL_MS)
    const unsubscribe = feed.subscribe(campaignId, woken)
    const unsubscribeAccess = feed.subscribeAccess(campaignId, () => done(true))
    signal.addEventListener('abort', woken)
  })
}
