-- What players see of GM-only rolls (src/services/public-view.ts). A GM-only event changes the
-- character's sheet without players seeing the change: `characters.public_sheet` holds the
-- sheet as players see it while the two differ (NULL when they are the same), and a public
-- event recorded meanwhile keeps its player-side sheets and pending decision in the payload's
-- `publicView`. `public_listing` is that event's listing for player pages, rendered once when
-- written like `listing`; it is NULL for every event players see as recorded.

ALTER TABLE "characters" ADD COLUMN "public_sheet" JSONB;

CREATE FUNCTION "roll_event_public_listing"(
    "id" UUID, "seq" BIGINT, "campaign_id" UUID, "character_id" UUID, "type" TEXT, "ruleset" TEXT,
    "visibility" TEXT, "actor" JSONB, "occurred_at" TIMESTAMPTZ, "causation_id" UUID, "payload" JSONB
) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN "payload" ? 'publicView' THEN "roll_event_listing"("id", "seq", "campaign_id", "character_id",
        "type", "ruleset", "visibility", "actor", "occurred_at", "causation_id",
        jsonb_set("payload", '{pending}', "payload" -> 'publicView' -> 'pending')) END
$$;

ALTER TABLE "roll_events" ADD COLUMN "public_listing" TEXT GENERATED ALWAYS AS (
    "roll_event_public_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;
