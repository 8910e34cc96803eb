-- Membership (SPEC §3): node rows, one membership version row, the leader lease, the history.
-- Times are INTEGER microseconds since 1970-01-01T00:00:00Z.
CREATE TABLE IF NOT EXISTS ${prefix}nodes (
  node_id        TEXT    NOT NULL PRIMARY KEY,
  name           TEXT    NOT NULL,
  address        TEXT    NOT NULL,
  capabilities   TEXT    NOT NULL,
  status         TEXT    NOT NULL,
  started_at     INTEGER NOT NULL,
  heartbeat_at   INTEGER NOT NULL,
  fence_after_us INTEGER NOT NULL,
  row_version    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ${prefix}membership (
  id      INTEGER NOT NULL PRIMARY KEY,
  version INTEGER NOT NULL
);
INSERT INTO ${prefix}membership (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
-- Leader lease (SPEC §4): epoch 0 and already expired until the first acquire.
CREATE TABLE IF NOT EXISTS ${prefix}leases (
  name        TEXT    NOT NULL PRIMARY KEY,
  holder      TEXT,
  epoch       INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  acquired_at INTEGER
);
INSERT INTO ${prefix}leases (name, holder, epoch, expires_at) VALUES ('leader', NULL, 0, 0) ON CONFLICT (name) DO NOTHING;
CREATE TABLE IF NOT EXISTS ${prefix}events (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  at      INTEGER NOT NULL,
  kind    TEXT    NOT NULL,
  node_id TEXT    NOT NULL,
  epoch   INTEGER,
  detail  TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}events_at ON ${prefix}events (at);
