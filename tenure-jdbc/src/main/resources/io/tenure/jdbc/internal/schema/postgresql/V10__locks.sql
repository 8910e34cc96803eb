-- Named locks (SPEC §11): one row per name. A row is never deleted, so a name's fencing token only
-- grows. owner is the holding acquisition's id, NULL once released; expires_at is when anyone may
-- take it (an expiry, or a release's keep-for time).
CREATE TABLE IF NOT EXISTS ${prefix}locks (
  name        VARCHAR(128)   NOT NULL PRIMARY KEY,
  holder      VARCHAR(255)   NOT NULL,
  owner       VARCHAR(64),
  token       BIGINT         NOT NULL,
  acquired_at TIMESTAMPTZ(6) NOT NULL,
  expires_at  TIMESTAMPTZ(6) NOT NULL
);
