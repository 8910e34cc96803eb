-- Agent assignments (SPEC §5): owner runs it, target is where the leader wants it.
CREATE TABLE IF NOT EXISTS ${prefix}agents (
  agent_uri   TEXT    NOT NULL PRIMARY KEY,
  owner_node  TEXT,
  target_node TEXT,
  epoch       INTEGER NOT NULL,
  paused      INTEGER NOT NULL,
  pinned_to   TEXT
);
CREATE INDEX IF NOT EXISTS ${prefix}agents_owner ON ${prefix}agents (owner_node);
