-- Named locks (SPEC §11): one row per name. A row is never deleted, so a name's fencing token only
-- grows. owner is the holding acquisition's id, NULL once released; expires_at is when anyone may
-- take it (an expiry, or a release's keep-for time). Times are INTEGER microseconds since the epoch.
CREATE TABLE IF NOT EXISTS ${prefix}locks (
  name        TEXT    NOT NULL PRIMARY KEY,
  holder      TEXT    NOT NULL,
  owner       TEXT,
  token       INTEGER NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
