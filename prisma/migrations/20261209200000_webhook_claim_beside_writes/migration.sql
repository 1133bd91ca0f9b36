-- Issue 28: webhooks keep up while the table rolls.

-- An endpoint's batch in flight is leased on the endpoint's own row. A dispatcher leases a run
-- of an endpoint's deliveries at once (one claim for many sends, still one at a time and in
-- order); another dispatcher whose claim started before that lease was committed then sees it
-- anyway, because locking a row that changed since the statement began re-checks the row's
-- latest version, which a check on the deliveries (read in the statement's snapshot) would not.
-- The claim locks the row FOR NO KEY UPDATE, which a roll's foreign-key check (FOR KEY SHARE)
-- never waits for nor blocks: the old FOR UPDATE skipped every endpoint a roll was committing
-- against, half the time under load.
ALTER TABLE "webhook_endpoints" ADD COLUMN "lease_id" UUID;
ALTER TABLE "webhook_endpoints" ADD COLUMN "leased_until" TIMESTAMPTZ(3);

-- Dispatchers in other processes (`npm run worker`, other instances) LISTEN on this channel and
-- are woken when a delivery becomes due, once its transaction commits; their poll is then only
-- a fallback. Notifications with the same payload in one transaction are sent once, so a roll
-- fanned out to many endpoints wakes each listener once.
CREATE FUNCTION "nerve_notify_webhook_delivery_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('nerve_webhook_deliveries', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "webhook_delivery_due" AFTER INSERT OR UPDATE ON "webhook_deliveries"
    FOR EACH ROW WHEN (NEW."status" = 'pending' AND NEW."next_attempt_at" <= now())
    EXECUTE FUNCTION "nerve_notify_webhook_delivery_due"();
