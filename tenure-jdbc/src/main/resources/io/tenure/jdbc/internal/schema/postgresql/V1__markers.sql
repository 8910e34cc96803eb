-- Lifecycle markers (SPEC §7): at most one state per (tenant, resource).
CREATE TABLE IF NOT EXISTS ${prefix}markers (
  tenant    VARCHAR(128)  NOT NULL,
  resource  VARCHAR(255)  NOT NULL,
  state     VARCHAR(64)   NOT NULL,
  reason    VARCHAR(1000),
  marked_at TIMESTAMPTZ(6) NOT NULL,
  PRIMARY KEY (tenant, resource)
);
