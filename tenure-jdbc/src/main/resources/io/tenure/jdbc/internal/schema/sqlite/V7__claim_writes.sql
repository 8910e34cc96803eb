-- Fewer index writes per claim, and the same indexes as PostgreSQL's V7 so both run one set of
-- claim statements. A claim moves a row from PENDING to INFLIGHT; SQLite rewrites the entries of
-- every index that names the status, in its columns or its WHERE: before V7, (queue, status, id),
-- the lease index and, for keyed rows, the key index; after V7, messages_inflight (and for keyed
-- rows messages_inflight_key). SQLite keeps V4's UNIQUE (queue, dedupe_key): a table constraint,
-- which only a rebuild of the table could change, and a claim does not touch it.
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
