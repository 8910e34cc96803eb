-- Claims that stay flat however deep a queue is (SPEC §6.2, §6.9). V4's indexes made MariaDB
-- sort every pending row of a queue on each claim (ascending priority against the claim's
-- descending order) and probe each keyed row's key; a backlog of a few busy FIFO keys then cost
-- every claim the whole backlog, read and locked.
-- One ALTER TABLE, so the change is atomic (no moment without a claim index for nodes still
-- claiming) and runs on MySQL 8 too, which has no DROP INDEX IF EXISTS.
--   messages_claim: unordered claims walk (queue, status, priority DESC, id) in claim order and
--     stop at the limit (descending index parts need MariaDB 10.8+ / MySQL 8; on MariaDB 10.6 and
--     10.7 the DESC is ignored and a claim sorts its window's candidates);
--   messages_key: each key's pending head by a loose index scan, and "an older row of this key
--     pending / in flight?" as one equality probe each;
--   messages_status: exclusive queues, the oldest pending and in-flight rows in id order.
ALTER TABLE ${prefix}messages
  DROP INDEX ${prefix}messages_claim,
  ADD INDEX ${prefix}messages_claim (queue, status, priority DESC, id),
  DROP INDEX ${prefix}messages_key,
  ADD INDEX ${prefix}messages_key (queue, status, msg_key, id),
  ADD INDEX ${prefix}messages_status (queue, status, id);
