-- Nerve's first schema: campaigns, keys, characters, the append-only roll history,
-- the webhook outbox and idempotency records. Mirrors prisma/schema.prisma.

CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "ruleset" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "last_seq" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "label" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "character_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "characters" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "sheet" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMPTZ(3),
    CONSTRAINT "characters_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "roll_events" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "character_id" UUID,
    "type" TEXT NOT NULL,
    "ruleset" TEXT NOT NULL,
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "actor" JSONB NOT NULL,
    "payload" JSONB NOT NULL,
    "causation_id" UUID,
    "idempotency_key" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "roll_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "event_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "include_gm_events" BOOLEAN NOT NULL DEFAULT false,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID,
    "event_seq" BIGINT,
    "event_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "response_excerpt" TEXT,
    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "idempotency_records" (
    "campaign_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'in-flight',
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("campaign_id", "key")
);

CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_campaign_id_idx" ON "api_keys"("campaign_id");
CREATE INDEX "characters_campaign_id_id_idx" ON "characters"("campaign_id", "id");
CREATE UNIQUE INDEX "roll_events_campaign_id_seq_key" ON "roll_events"("campaign_id", "seq");
CREATE INDEX "roll_events_campaign_id_character_id_seq_idx" ON "roll_events"("campaign_id", "character_id", "seq");
CREATE INDEX "roll_events_campaign_id_type_seq_idx" ON "roll_events"("campaign_id", "type", "seq");
CREATE INDEX "roll_events_causation_id_idx" ON "roll_events"("causation_id");
CREATE INDEX "webhook_endpoints_campaign_id_idx" ON "webhook_endpoints"("campaign_id");
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");
CREATE INDEX "webhook_attempts_delivery_id_attempted_at_idx" ON "webhook_attempts"("delivery_id", "attempted_at");
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "characters" ADD CONSTRAINT "characters_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "roll_events" ADD CONSTRAINT "roll_events_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "roll_events" ADD CONSTRAINT "roll_events_character_id_fkey" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "roll_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The history is append-only in the database itself, not by convention: corrections are
-- new events (a GM revert), never edits.
CREATE FUNCTION "roll_events_reject_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'roll_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "roll_events_append_only"
    BEFORE UPDATE OR DELETE ON "roll_events"
    FOR EACH ROW EXECUTE FUNCTION "roll_events_reject_change"();

CREATE TRIGGER "roll_events_no_truncate"
    BEFORE TRUNCATE ON "roll_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "roll_events_reject_change"();
