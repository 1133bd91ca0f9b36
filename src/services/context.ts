import type { Store } from '../repositories/index.js'
import type { KeyRole } from '../lib/secrets.js'
import type { EventFeed } from './event-feed.js'

/** Who makes a request: the key it came with, and the campaign that key belongs to. */
export interface Principal {
  keyId: string
  role: KeyRole
  characterIds: string[]
  campaign: { id: string; name: string; ruleset: string; settings: unknown }
}

export interface ServiceContext {
  store: Store
  feed: EventFeed
}

export function actorOf(principal: Principal) {
  return { role: principal.role, keyId: principal.keyId }
}
