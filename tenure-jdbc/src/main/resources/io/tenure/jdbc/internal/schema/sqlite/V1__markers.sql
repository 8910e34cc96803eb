-- Lifecycle markers (SPEC §7): at most one state per (tenant, resource).
-- marked_at: INTEGER microseconds since 1970-01-01T00:00:00Z.
CREATE TABLE IF NOT EXISTS ${prefix}markers (
  tenant    TEXT    NOT NULL,
  resource  TEXT    NOT NULL,
  state     TEXT    NOT NULL,
  reason    TEXT,
  marked_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, resource)
);
