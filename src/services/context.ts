import type { Store } from '../repositories/index.js'
import type { EventFeed } from './event-feed.js'

export interface ServiceContext {
  store: Store
  feed: EventFeed
}
