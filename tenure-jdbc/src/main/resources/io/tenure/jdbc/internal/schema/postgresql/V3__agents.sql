-- Agent assignments (SPEC §5): owner runs it, target is where the leader wants it.
CREATE TABLE IF NOT EXISTS ${prefix}agents (
  agent_uri   VARCHAR(255) NOT NULL PRIMARY KEY,
  owner_node  VARCHAR(36),
  target_node VARCHAR(36),
  epoch       BIGINT       NOT NULL,
  paused      BOOLEAN      NOT NULL,
  pinned_to   VARCHAR(128)
);
CREATE INDEX IF NOT EXISTS ${prefix}agents_owner ON ${prefix}agents (owner_node);
