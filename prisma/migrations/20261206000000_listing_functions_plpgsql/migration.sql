-- The listing columns are generated: every event written calls "roll_event_listing", which
-- calls "roll_event_routed" for its decisions and its follow-ups. As SQL functions that cannot
-- be inlined (they read the payload through jsonb_to_record and jsonb_array_elements), each
-- is parsed and planned again in every statement that calls it, so every roll planned three
-- queries besides its own. The same bodies in PL/pgSQL keep their plans for the session.
-- What they return is unchanged, expression for expression: the listings already stored stay
-- as they are, and the listings written from now on are the same text (the journeys test
-- compares them with the API's event view for every event type of every rule set). Figures:
-- docs/BENCHMARKS.md, "2b. A roll's write cost".

CREATE OR REPLACE FUNCTION "roll_event_routed"("campaign_id" UUID, "character_id" UUID, "items" JSONB) RETURNS JSONB
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(e."item" || jsonb_build_object('route',
            '/v1/campaigns/' || "campaign_id"::text || '/characters/' || "character_id"::text || '/' || (e."item" ->> 'action'))
        ORDER BY e."ord"), '[]'::jsonb)
    FROM jsonb_array_elements(CASE jsonb_typeof("items")
        WHEN 'array' THEN "items" WHEN 'object' THEN jsonb_build_array("items") ELSE '[]'::jsonb END)
        WITH ORDINALITY AS e("item", "ord"));
END
$$;

CREATE OR REPLACE FUNCTION "roll_event_listing"(
    "id" UUID, "seq" BIGINT, "campaign_id" UUID, "character_id" UUID, "type" TEXT, "ruleset" TEXT,
    "visibility" TEXT, "actor" JSONB, "occurred_at" TIMESTAMPTZ, "causation_id" UUID, "payload" JSONB
) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN (SELECT json_build_object(
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
        "outcome" JSONB, "summary" TEXT, "pending" JSONB, "followUps" JSONB));
END
$$;
