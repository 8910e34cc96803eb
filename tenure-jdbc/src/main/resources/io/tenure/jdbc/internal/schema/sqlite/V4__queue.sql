-- Durable queue (SPEC §6). One row per message; ids grow with enqueue order and are never reused.
CREATE TABLE IF NOT EXISTS ${prefix}messages (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  queue        TEXT    NOT NULL,
  msg_key      TEXT,
  payload      BLOB    NOT NULL,
  content_type TEXT    NOT NULL,
  headers      TEXT    NOT NULL,
  priority     INTEGER NOT NULL,
  attempts     INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  available_at INTEGER NOT NULL,
  status       TEXT    NOT NULL,
  owner_node   TEXT,
  claim_token  TEXT,
  lease_until  INTEGER,
  last_error   TEXT,
  created_at   INTEGER NOT NULL,
  finished_at  INTEGER,
  dedupe_key   TEXT,
  UNIQUE (queue, dedupe_key)
);
CREATE INDEX IF NOT EXISTS ${prefix}messages_claim ON ${prefix}messages (queue, priority DESC, id)
  WHERE status = 'PENDING';
CREATE INDEX IF NOT EXISTS ${prefix}messages_key ON ${prefix}messages (queue, msg_key, id)
  WHERE msg_key IS NOT NULL AND status IN ('PENDING', 'INFLIGHT');
CREATE INDEX IF NOT EXISTS ${prefix}messages_lease ON ${prefix}messages (lease_until) WHERE status = 'INFLIGHT';
CREATE INDEX IF NOT EXISTS ${prefix}messages_status ON ${prefix}messages (queue, status, id);
