import { Prisma } from '../generated/prisma/client.js'

/** SQL expressions for the parts of an endpoint and of an event that decide whether it is sent there. */
interface EndpointColumns {
  eventTypes: Prisma.Sql
  includeGmEvents: Prisma.Sql
}
interface EventColumns {
  type: Prisma.Sql
  visibility: Prisma.Sql
}

/**
 * The one rule for which events an endpoint is sent, as a SQL condition: its event types (none
 * listed: every type), and GM-only events only when it opted in. Queuing an event as it is
 * recorded (src/repositories/events.ts) and replaying a history to an endpoint
 * (`WebhookRepository.replay`) both filter with it.
 */
export function endpointWants(endpoint: EndpointColumns, event: EventColumns): Prisma.Sql {
  return Prisma.sql`(cardinality(${endpoint.eventTypes}) = 0 OR ${event.type} = ANY(${endpoint.eventTypes}))
          AND (${event.visibility} = 'public' OR ${endpoint.includeGmEvents})`
}
