-- Fewer index entries per claim. A claim moves a row from PENDING to INFLIGHT, which PostgreSQL
-- writes as a new row version with an entry in every index whose columns and predicate it matches.
-- Before V7 that was the primary key, the dedupe key (NULLs included), (queue, status, id), the
-- lease index and, for keyed rows, the key index: 4 entries per unkeyed claim, 5 per keyed one.
-- After V7: the primary key and messages_inflight (2; keyed rows also messages_inflight_key, 3).
-- Claims alone ran about 1.5x as fast (docs/BENCHMARKS.md).
--
-- Dedupe keys: unique among rows that have one; rows without a key are not indexed. The new index
-- is built before the constraint is dropped, so uniqueness holds throughout.
CREATE UNIQUE INDEX IF NOT EXISTS ${prefix}messages_dedupe_key ON ${prefix}messages (queue, dedupe_key)
  WHERE dedupe_key IS NOT NULL;
ALTER TABLE ${prefix}messages DROP CONSTRAINT IF EXISTS ${prefix}messages_dedupe;
-- Per-key FIFO: an older pending row of the key (in-flight rows are messages_inflight_key's).
CREATE INDEX IF NOT EXISTS ${prefix}messages_key_pending ON ${prefix}messages (queue, msg_key, id)
  WHERE msg_key IS NOT NULL AND status = 'PENDING';
DROP INDEX IF EXISTS ${prefix}messages_key;
-- In flight, by queue then lease: "is anything of this queue in flight" (exclusive queues) and the
-- reclaim sweep's expired leases, one range per queue.
CREATE INDEX IF NOT EXISTS ${prefix}messages_inflight ON ${prefix}messages (queue, lease_until)
  WHERE status = 'INFLIGHT';
DROP INDEX IF EXISTS ${prefix}messages_lease;
-- Exclusive queues claim pending rows in id order, whatever their priority.
CREATE INDEX IF NOT EXISTS ${prefix}messages_pending ON ${prefix}messages (queue, id) WHERE status = 'PENDING';
-- Retention and dead letters.
CREATE INDEX IF NOT EXISTS ${prefix}messages_finished ON ${prefix}messages (queue, status, id)
  WHERE status IN ('DONE', 'DEAD');
DROP INDEX IF EXISTS ${prefix}messages_status;
