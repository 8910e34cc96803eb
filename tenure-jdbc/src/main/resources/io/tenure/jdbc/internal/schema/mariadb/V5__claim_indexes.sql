-- Claims that stay flat however deep a queue is (SPEC §6.2, §6.9). V4's indexes made MariaDB
-- sort every pending row of a queue on each claim (ascending priority against the claim's
-- descending order) and probe each keyed row's key; a backlog of a few busy FIFO keys then cost
-- every claim the whole backlog, read and locked.
-- Unordered claims walk (queue, status, priority DESC, id) in claim order and stop at the limit.
DROP INDEX IF EXISTS ${prefix}messages_claim ON ${prefix}messages;
CREATE INDEX IF NOT EXISTS ${prefix}messages_claim ON ${prefix}messages (queue, status, priority DESC, id);
-- FIFO keys: each key's pending head by a loose index scan, and "an older row of this key in
-- flight?" as one probe.
DROP INDEX IF EXISTS ${prefix}messages_key ON ${prefix}messages;
CREATE INDEX IF NOT EXISTS ${prefix}messages_key ON ${prefix}messages (queue, status, msg_key, id);
-- Exclusive queues: the oldest pending and in-flight rows, in id order.
CREATE INDEX IF NOT EXISTS ${prefix}messages_status ON ${prefix}messages (queue, status, id);
