import type { Repositories, Store } from '../repositories/index.js'
import type { Principal } from '../plugins/app/auth.js'
import type { EventFeed } from './event-feed.js'

export interface ServiceContext {
  store: Store
  feed: EventFeed
}

/** Records a command's response inside its transaction, so a retry with the same Idempotency-Key finds it. */
export type OnCommit = (tx: Repositories, response: { status: number; body: unknown }) => Promise<void>

export function actorOf(principal: Principal) {
  return { role: principal.role, keyId: principal.keyId }
}
