-- A keyed message is claimable only while no message of its key is in flight, whatever that
-- message's id (SPEC §6.2): a replayed dead letter keeps its old id, so it can be older than the
-- message of its key in flight. "Is a message of this key in flight?" is one entry of this small
-- partial index (only in-flight keyed rows); the key index of V4 would have to walk past the key's
-- whole pending backlog to find its in-flight row.
CREATE INDEX IF NOT EXISTS ${prefix}messages_inflight_key ON ${prefix}messages (queue, msg_key)
  WHERE status = 'INFLIGHT' AND msg_key IS NOT NULL;
