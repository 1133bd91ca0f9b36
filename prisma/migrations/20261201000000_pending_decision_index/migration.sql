-- A decision (stress-response, record-disorder, …) looks up the character's latest event that
-- left it pending. This partial index holds only the events that left a decision open, so the
-- lookup is one index probe however long the character's history grows.
-- Prisma's schema language cannot express an expression index: prisma/schema.prisma names it
-- in a comment on RollEvent.

CREATE INDEX "roll_events_pending_action_idx" ON "roll_events"
    ("campaign_id", "character_id", (("payload" -> 'pending') ->> 'action'), "seq")
    WHERE (("payload" -> 'pending') ->> 'action') IS NOT NULL;
