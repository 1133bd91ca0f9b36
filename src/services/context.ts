import type { Store } from '../repositories/index.js'
import type { Principal } from '../plugins/app/auth.js'
import type { EventFeed } from './event-feed.js'

export interface ServiceContext {
  store: Store
  feed: EventFeed
}

export function actorOf(principal: Principal) {
  return { role: principal.role, keyId: principal.keyId }
}
