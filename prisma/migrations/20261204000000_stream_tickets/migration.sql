-- Stream tickets: a browser's EventSource cannot send Authorization, so a key mints a
-- short-lived, single-use ticket for the event stream's URL. Only its SHA-256 is stored; using
-- it deletes the row, so a ticket opens one stream at most.

CREATE TABLE "stream_tickets" (
    "hash" TEXT NOT NULL,
    "campaign_id" UUID NOT NULL,
    "key_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "stream_tickets_pkey" PRIMARY KEY ("hash")
);

-- Expired tickets that were never used are swept when new ones are minted.
CREATE INDEX "stream_tickets_expires_at_idx" ON "stream_tickets"("expires_at");

ALTER TABLE "stream_tickets" ADD CONSTRAINT "stream_tickets_key_id_fkey"
    FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
