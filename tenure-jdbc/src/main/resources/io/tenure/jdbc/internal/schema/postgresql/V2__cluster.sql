-- Membership (SPEC §3): node rows, one membership version row, the leader lease, the history.
CREATE TABLE IF NOT EXISTS ${prefix}nodes (
  node_id        VARCHAR(36)    NOT NULL PRIMARY KEY,
  name           VARCHAR(128)   NOT NULL,
  address        VARCHAR(255)   NOT NULL,
  capabilities   VARCHAR(4000)  NOT NULL,
  status         VARCHAR(16)    NOT NULL,
  started_at     TIMESTAMPTZ(6) NOT NULL,
  heartbeat_at   TIMESTAMPTZ(6) NOT NULL,
  fence_after_us BIGINT         NOT NULL,
  row_version    BIGINT         NOT NULL
);
CREATE TABLE IF NOT EXISTS ${prefix}membership (
  id      INTEGER NOT NULL PRIMARY KEY,
  version BIGINT  NOT NULL
);
INSERT INTO ${prefix}membership (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
-- Leader lease (SPEC §4): epoch 0 and already expired until the first acquire.
CREATE TABLE IF NOT EXISTS ${prefix}leases (
  name        VARCHAR(64)    NOT NULL PRIMARY KEY,
  holder      VARCHAR(36),
  epoch       BIGINT         NOT NULL,
  expires_at  TIMESTAMPTZ(6) NOT NULL,
  acquired_at TIMESTAMPTZ(6)
);
INSERT INTO ${prefix}leases (name, holder, epoch, expires_at) VALUES ('leader', NULL, 0, '1970-01-01T00:00:00Z')
  ON CONFLICT (name) DO NOTHING;
CREATE TABLE IF NOT EXISTS ${prefix}events (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at      TIMESTAMPTZ(6) NOT NULL,
  kind    VARCHAR(32)    NOT NULL,
  node_id VARCHAR(36)    NOT NULL,
  epoch   BIGINT,
  detail  VARCHAR(1000)  NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}events_at ON ${prefix}events (at);
