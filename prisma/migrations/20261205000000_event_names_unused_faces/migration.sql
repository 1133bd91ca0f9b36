-- Events name their character (`characterName`), so a bot can post "Vera Okafor held against
-- Violence 4" without asking for the character. The name is the one the character had when
-- the event was recorded (for the edit that renamed it, the new name): EventRepository.record
-- writes it into the payload from the character row it saves in the same statement. The
-- history is append-only, so a later rename does not change what earlier events say.
--
-- Events recorded before this migration get the name they would have been written with. A
-- character's name changes only by its creation and its edits (a revert restores the sheet, not
-- the name), whose requests hold the name given: an event's name is the last one given at or
-- before it, or the character's present name when none was.
--
-- This backfill is the one change ever made to recorded events: it adds a key the event did not
-- have and alters nothing it said. The append-only trigger is set aside for it inside this
-- migration's transaction (other sessions never see it disabled) and restored before commit.
-- The listing also shows `unusedFaces`: provided faces a resolution did not use (a VTT that
-- rolled before it knew the check would be avoided), `[]` for events recorded before they were
-- kept, as the API's event view shows them.
--
-- The listing columns are generated: they are dropped first, so the backfill does not render
-- each listing twice, and added again around the new function.

ALTER TABLE "roll_events" DROP COLUMN "public_listing";
ALTER TABLE "roll_events" DROP COLUMN "listing";

ALTER TABLE "roll_events" DISABLE TRIGGER "roll_events_append_only";
UPDATE "roll_events" e
SET "payload" = e."payload" || jsonb_build_object('characterName', coalesce(
    (SELECT given."payload" -> 'request' ->> 'name'
        FROM "roll_events" given
        WHERE given."campaign_id" = e."campaign_id" AND given."character_id" = e."character_id"
            AND given."seq" <= e."seq"
            AND given."type" IN ('character.created', 'character.updated')
            AND jsonb_typeof(given."payload" -> 'request' -> 'name') = 'string'
        ORDER BY given."seq" DESC
        LIMIT 1),
    c."name"))
FROM "characters" c
WHERE c."id" = e."character_id" AND NOT e."payload" ? 'characterName';
ALTER TABLE "roll_events" ENABLE TRIGGER "roll_events_append_only";

CREATE OR REPLACE FUNCTION "roll_event_listing"(
    "id" UUID, "seq" BIGINT, "campaign_id" UUID, "character_id" UUID, "type" TEXT, "ruleset" TEXT,
    "visibility" TEXT, "actor" JSONB, "occurred_at" TIMESTAMPTZ, "causation_id" UUID, "payload" JSONB
) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT json_build_object(
        'id', "id", 'seq', "seq", 'campaignId', "campaign_id", 'characterId', "character_id",
        'characterName', p."characterName",
        'type', "type", 'ruleset', "ruleset", 'visibility', "visibility", 'actor', "actor",
        'occurredAt', to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'causationId', "causation_id", 'request', p."request", 'dice', p."dice",
        'unusedFaces', coalesce(p."unusedFaces", '[]'::jsonb),
        'outcome', p."outcome", 'summary', p."summary",
        'pending', "roll_event_routed"("campaign_id", "character_id", p."pending"),
        'followUps', "roll_event_routed"("campaign_id", "character_id", p."followUps")
    )::text
    FROM jsonb_to_record("payload") AS p("characterName" TEXT, "request" JSONB, "dice" JSONB, "unusedFaces" JSONB,
        "outcome" JSONB, "summary" TEXT, "pending" JSONB, "followUps" JSONB)
$$;

ALTER TABLE "roll_events" ADD COLUMN "listing" TEXT NOT NULL GENERATED ALWAYS AS (
    "roll_event_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;

ALTER TABLE "roll_events" ADD COLUMN "public_listing" TEXT GENERATED ALWAYS AS (
    "roll_event_public_listing"("id", "seq", "campaign_id", "character_id", "type", "ruleset", "visibility",
        "actor", "occurred_at", "causation_id", "payload")
) STORED;
