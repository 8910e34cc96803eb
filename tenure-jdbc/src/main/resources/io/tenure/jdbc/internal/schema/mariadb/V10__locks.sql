-- Named locks (SPEC §11): one row per name. A row is never deleted, so a name's fencing token only
-- grows. owner is the holding acquisition's id, NULL once released; expires_at is when anyone may
-- take it (an expiry, or a release's keep-for time). Times are UTC.
CREATE TABLE IF NOT EXISTS ${prefix}locks (
  name        VARCHAR(128) NOT NULL PRIMARY KEY,
  holder      VARCHAR(255) NOT NULL,
  owner       VARCHAR(64),
  token       BIGINT       NOT NULL,
  acquired_at DATETIME(6)  NOT NULL,
  expires_at  DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
