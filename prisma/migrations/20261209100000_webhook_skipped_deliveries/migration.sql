-- A delivery can end `skipped`: it was never sent, and `skipped_reason` says why. A GM-only
-- event's delivery is skipped when its endpoint no longer includes GM-only events by the time
-- it would be sent (or redelivered): opting out applies to what is already queued.
ALTER TABLE "webhook_deliveries" ADD COLUMN "skipped_reason" TEXT;

-- Retention removes skipped deliveries too, as it does delivered and failed ones.
DROP INDEX "webhook_deliveries_final_idx";
CREATE INDEX "webhook_deliveries_final_idx" ON "webhook_deliveries" ("next_attempt_at")
    WHERE "status" IN ('delivered', 'failed', 'skipped');
