-- The dispatcher's claim looks at each endpoint's queue: deliveries still pending or in flight.
-- Partial indexes hold only those rows, so finding an endpoint's next delivery (in the order the
-- claim sends them) and its earliest due time is an index probe, however many delivered rows
-- the endpoint has piled up and however long its backlog is. Mirrors the comment on
-- WebhookDelivery in prisma/schema.prisma (Prisma cannot express partial indexes).

CREATE INDEX "webhook_deliveries_queue_order_idx" ON "webhook_deliveries"
    ("endpoint_id", ("attempt_count" > 0), "event_seq" NULLS FIRST, "created_at", "id")
    WHERE "status" IN ('pending', 'delivering');

CREATE INDEX "webhook_deliveries_queue_due_idx" ON "webhook_deliveries"
    ("endpoint_id", "next_attempt_at")
    WHERE "status" IN ('pending', 'delivering');
