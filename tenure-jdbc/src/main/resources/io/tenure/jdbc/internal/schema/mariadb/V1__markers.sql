-- Lifecycle markers (SPEC §7): at most one state per (tenant, resource).
-- utf8mb4_bin: ids compare exactly (case and accents matter), as on the other databases.
-- DATETIME(6) holds UTC written by Tenure; the session time zone never applies to it.
CREATE TABLE IF NOT EXISTS ${prefix}markers (
  tenant    VARCHAR(128)  NOT NULL,
  resource  VARCHAR(255)  NOT NULL,
  state     VARCHAR(64)   NOT NULL,
  reason    VARCHAR(1000),
  marked_at DATETIME(6)   NOT NULL,
  PRIMARY KEY (tenant, resource)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
