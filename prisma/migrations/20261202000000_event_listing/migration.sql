-- A history page is the events' JSON, joined. Events never change, so each event's JSON (as
-- the API lists it, without the two sheets) is rendered once, when the row is written, into a
-- generated column; reading a page then copies text instead of decompressing every payload
-- and building its JSON again (about three quarters of a page's database time).
-- The keys and formats are those of the API's event view (src/services/views.ts eventView);
-- `EventRepository.listAsJson` appends the sheets when a page asks for them.
-- PostgreSQL accepts only immutable expressions in a generated column. Every function used
-- here gives the same text for the same row whatever the session's settings (the time is
-- rendered in UTC with a fixed pattern, numbers come from jsonb's numeric), so declaring the
-- function IMMUTABLE is true. Changing the listing's shape means a new migration that
-- replaces this column.

CREATE FUNCTION "roll_event_listing"(
    "id" UUID, "seq" BIGINT, "campaign_id" UUID, "character_id" UUID, "type" TEXT, "ruleset" TEXT,
    "visibility" TEXT, "actor" JSONB, "occurred_at" TIMESTAMPTZ, "causation_id" UUID, "payload" JSONB
) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT json_build_object(
        'id', "id", 'seq', "seq", 'campaignId', "campaign_id", 'characterId', "character_id",
        'type', "type", 'ruleset', "ruleset", 'visibility', "visibility", 'actor', "actor",
        'occurredAt', to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'causationId', "causation_id", 'request', p."request", 'dice', p."dice",
        'outcome', p."outcome", 'summary', p."summary", 'pending', p."pending"
    )::text
    FROM jsonb_to_record("payload") AS p("request" JSONB, "dice" JSONB, "outcome" JSONB, "summary" TEXT, "pending" JSONB)
$$;

-- Adding the column rewrites the table once, computing it for every existing event (no row
-- trigger fires, so the append-only guard is not involved).
ALTER TABLE "roll_events" ADD COLUMN "listing" TEXT NOT NULL GENERATED ALWAYS AS (
    "roll_event_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;
