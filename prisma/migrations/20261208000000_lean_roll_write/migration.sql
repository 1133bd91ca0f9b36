-- A roll's write, lighter for the database; each choice is measured in docs/BENCHMARKS.md
-- ("2b. A roll's write cost"), where the benchmark also runs the other way of it.

-- Deliveries get time-ordered ids (UUID version 7), as every id Node makes does. A random id
-- (gen_random_uuid) put each new delivery on a random page of the primary key: after every
-- checkpoint, nearly each insert wrote that whole page to the WAL again, about a sixth of a
-- roll's WAL. PostgreSQL 15 has no uuidv7(); this is it: the version 4 id with its first 48
-- bits replaced by the Unix time in milliseconds and its version bits set to 7.
CREATE FUNCTION "nerve_uuid_v7"() RETURNS UUID LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
    52, 1), 53, 1), 'hex')::uuid
$$;

-- Indexes every roll wrote and no query reads. Nothing looks events up by the event they
-- were caused by (a revert follows its character's events), and the outbox's queues are read
-- through the partial indexes of migration 20261201000100_webhook_queue_indexes.
DROP INDEX "roll_events_causation_id_idx";
DROP INDEX "webhook_deliveries_endpoint_id_status_event_seq_idx";

-- Retention looks for deliveries that reached a final state: an index of those alone, which a
-- new (pending) delivery does not enter, replaces the one over every delivery's status.
DROP INDEX "webhook_deliveries_status_next_attempt_at_idx";
CREATE INDEX "webhook_deliveries_final_idx" ON "webhook_deliveries" ("next_attempt_at")
    WHERE "status" IN ('delivered', 'failed');

-- An event's row keeps its payload instead of moving it to the TOAST table once the row passes
-- 2 KB: one insert and one index entry fewer per roll, and no TOAST lookup when a page is read
-- with its sheets. A row over 4 KB has its largest values compressed first (a roll's payload,
-- 3.4 KB of JSON, to about 1.4 KB), and only a row still over 4 KB moves values out of line.
-- Rows already stored stay as they are.
ALTER TABLE "roll_events" SET (toast_tuple_target = 4080);
