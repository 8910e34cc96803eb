-- Membership (SPEC §3): node rows, one membership version row, the leader lease, the history.
CREATE TABLE IF NOT EXISTS ${prefix}nodes (
  node_id        VARCHAR(36)   NOT NULL PRIMARY KEY,
  name           VARCHAR(128)  NOT NULL,
  address        VARCHAR(255)  NOT NULL,
  capabilities   VARCHAR(4000) NOT NULL,
  status         VARCHAR(16)   NOT NULL,
  started_at     DATETIME(6)   NOT NULL,
  heartbeat_at   DATETIME(6)   NOT NULL,
  fence_after_us BIGINT        NOT NULL,
  row_version    BIGINT        NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE TABLE IF NOT EXISTS ${prefix}membership (
  id      INTEGER NOT NULL PRIMARY KEY,
  version BIGINT  NOT NULL
) ENGINE = InnoDB;
INSERT INTO ${prefix}membership (id, version) SELECT 1, 0 FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM ${prefix}membership WHERE id = 1);
-- Leader lease (SPEC §4): epoch 0 and already expired until the first acquire.
CREATE TABLE IF NOT EXISTS ${prefix}leases (
  name        VARCHAR(64) NOT NULL PRIMARY KEY,
  holder      VARCHAR(36),
  epoch       BIGINT      NOT NULL,
  expires_at  DATETIME(6) NOT NULL,
  acquired_at DATETIME(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
INSERT INTO ${prefix}leases (name, holder, epoch, expires_at) SELECT 'leader', NULL, 0, '1970-01-01 00:00:00' FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM ${prefix}leases WHERE name = 'leader');
CREATE TABLE IF NOT EXISTS ${prefix}events (
  id      BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  at      DATETIME(6)   NOT NULL,
  kind    VARCHAR(32)   NOT NULL,
  node_id VARCHAR(36)   NOT NULL,
  epoch   BIGINT,
  detail  VARCHAR(1000) NOT NULL,
  INDEX ${prefix}events_at (at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
