-- Webhook dispatch.
-- Deliveries: a lease id, so a dispatcher settles only deliveries it still holds; one delivery
-- per event and endpoint (replays and redeliveries reuse it, so its id — the `webhook-id`
-- header — stays stable); an index for finding each endpoint's next delivery in event order.
-- Endpoints: a backoff of their own, so an endpoint that is down gets one probing attempt per
-- step of the retry schedule instead of one per queued delivery.
-- Mirrors prisma/schema.prisma.

ALTER TABLE "webhook_deliveries" ADD COLUMN "lease_id" UUID;

ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused_until" TIMESTAMPTZ(3);

CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");
CREATE INDEX "webhook_deliveries_endpoint_id_status_event_seq_idx" ON "webhook_deliveries"("endpoint_id", "status", "event_seq");
