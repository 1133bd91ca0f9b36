import { NotFoundError } from '../errors.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import type { EventListFilter } from './event.js'
import { pageOf, pageSize } from '../lib/pagination.js'
import { audienceOf } from '../services/public-view.js'
import { eventView } from './event.js'
import { eventTypesOf, refuseUnknownType } from './event-types.js'
import { findRuleSet } from '../rules/index.js'

/**
 * A page of the campaign's history in sequence order, as the response body itself; player keys
 * never see GM-only events. The database renders each event's JSON and this only joins them,
 * which keeps a page's cost flat however deep the history is.
 */
export async function listEventsJson(
  store: Pick<Store, 'eventPages'>,
  principal: Principal,
  query: EventListFilter,
): Promise<string> {
  const { sheets, ...filter } = query
  if (filter.type !== undefined) {
    const { ruleset } = principal.campaign
    const known = eventTypesOf(findRuleSet(ruleset)).map((entry) => entry.type)
    refuseUnknownType(filter.type, known, ruleset, '/querystring/type')
  }
  const limit = pageSize(filter.limit)
  const rows = await store.eventPages.list(
    principal.campaign.id,
    { ...filter, limit, publicOnly: principal.role !== 'gm' },
    { sheets: sheets !== 'none' },
  )
  const { page, hasMore, nextCursor } = pageOf(rows, limit, (row) => row.seq)
  return `{"data":[${page.map((row) => row.json).join(',')}],"hasMore":${hasMore},"nextCursor":${nextCursor}}`
}

export async function getEvent(store: Pick<Store, 'events'>, principal: Principal, eventId: string) {
  const event = await store.events.find(principal.campaign.id, eventId)
  // A GM-only event does not exist as far as a player key can tell.
  if (!event || (event.visibility === 'gm' && principal.role !== 'gm'))
    throw new NotFoundError(`event ${eventId} not found`)
  return eventView(event, audienceOf(principal))
}
