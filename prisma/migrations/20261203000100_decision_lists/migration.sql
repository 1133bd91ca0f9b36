-- Events list every decision they leave open (`pending` is an array; events written before
-- hold one decision object or null) and the follow-up rolls their result calls for
-- (`followUps`). The listing shows both as the API does (src/services/views.ts eventView):
-- `pending` always as an array, each decision and follow-up with the route of its action.
-- The listing columns are generated, so they are dropped and added again around the new
-- function (one rewrite of the table; no row trigger fires).

ALTER TABLE "roll_events" DROP COLUMN "public_listing";
ALTER TABLE "roll_events" DROP COLUMN "listing";

-- Each item (a decision or a follow-up naming an `action`) with `route`: where that action is made on the character.
CREATE FUNCTION "roll_event_routed"("campaign_id" UUID, "character_id" UUID, "items" JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(jsonb_agg(e."item" || jsonb_build_object('route',
            '/v1/campaigns/' || "campaign_id"::text || '/characters/' || "character_id"::text || '/' || (e."item" ->> 'action'))
        ORDER BY e."ord"), '[]'::jsonb)
    FROM jsonb_array_elements(CASE jsonb_typeof("items")
        WHEN 'array' THEN "items" WHEN 'object' THEN jsonb_build_array("items") ELSE '[]'::jsonb END)
        WITH ORDINALITY AS e("item", "ord")
$$;

CREATE OR REPLACE FUNCTION "roll_event_listing"(
    "id" UUID, "seq" BIGINT, "campaign_id" UUID, "character_id" UUID, "type" TEXT, "ruleset" TEXT,
    "visibility" TEXT, "actor" JSONB, "occurred_at" TIMESTAMPTZ, "causation_id" UUID, "payload" JSONB
) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT json_build_object(
        'id', "id", 'seq', "seq", 'campaignId', "campaign_id", 'characterId', "character_id",
        'type', "type", 'ruleset', "ruleset", 'visibility', "visibility", 'actor', "actor",
        'occurredAt', to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'causationId', "causation_id", 'request', p."request", 'dice', p."dice",
        'outcome', p."outcome", 'summary', p."summary",
        'pending', "roll_event_routed"("campaign_id", "character_id", p."pending"),
        'followUps', "roll_event_routed"("campaign_id", "character_id", p."followUps")
    )::text
    FROM jsonb_to_record("payload")
        AS p("request" JSONB, "dice" JSONB, "outcome" JSONB, "summary" TEXT, "pending" JSONB, "followUps" JSONB)
$$;

ALTER TABLE "roll_events" ADD COLUMN "listing" TEXT NOT NULL GENERATED ALWAYS AS (
    "roll_event_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;

ALTER TABLE "roll_events" ADD COLUMN "public_listing" TEXT GENERATED ALWAYS AS (
    "roll_event_public_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;

-- A decision is looked up among the events that listed it open (commands.ts decisionStateFor).
-- This partial index holds only events whose list is not empty; the older index on the single
-- decision (roll_events_pending_action_idx) still finds events written before.
CREATE INDEX "roll_events_open_decisions_idx" ON "roll_events" ("campaign_id", "character_id", "seq")
    WHERE jsonb_typeof("payload" -> 'pending') = 'array' AND ("payload" -> 'pending') <> '[]'::jsonb;
