-- The listing columns are no longer generated: the statement that writes an event writes its
-- listings too, rendered by Node from the event's own view (eventListing in
-- src/schemas/events.ts, the same function the API answers with), so an event has one
-- definition. Rendering them in PostgreSQL was the largest part of what a roll cost the
-- database: with prepared statements, Nerve's write went from ~600 to ~1,050 transactions a
-- second without it (docs/BENCHMARKS.md, "2b. A roll's write cost").
-- The listings already stored keep their text; DROP EXPRESSION rewrites no row.

ALTER TABLE "roll_events" ALTER COLUMN "public_listing" DROP EXPRESSION;
ALTER TABLE "roll_events" ALTER COLUMN "listing" DROP EXPRESSION;

DROP FUNCTION "roll_event_public_listing"(UUID, BIGINT, UUID, UUID, TEXT, TEXT, TEXT, JSONB, TIMESTAMPTZ, UUID, JSONB);
DROP FUNCTION "roll_event_listing"(UUID, BIGINT, UUID, UUID, TEXT, TEXT, TEXT, JSONB, TIMESTAMPTZ, UUID, JSONB);
DROP FUNCTION "roll_event_routed"(UUID, UUID, JSONB);
