-- Schedules (SPEC §10): one row per name, its definition (the fingerprint tells an unchanged
-- declaration from a changed one) and where it stands. version grows with every change; a fire
-- applies only at the version it was planned from. Times are UTC.
CREATE TABLE IF NOT EXISTS ${prefix}schedules (
  name            VARCHAR(128) NOT NULL PRIMARY KEY,
  kind            VARCHAR(16)  NOT NULL,
  expression      VARCHAR(255),
  interval_us     BIGINT,
  anchor_at       DATETIME(6)  NOT NULL,
  zone            VARCHAR(64)  NOT NULL,
  queue           VARCHAR(128) NOT NULL,
  msg_key         VARCHAR(255),
  payload         LONGBLOB     NOT NULL,
  content_type    VARCHAR(255) NOT NULL,
  headers         TEXT         NOT NULL,
  priority        INTEGER      NOT NULL,
  max_attempts    INTEGER      NOT NULL,
  missed          VARCHAR(32)  NOT NULL,
  missed_after_us BIGINT       NOT NULL,
  while_paused    VARCHAR(8)   NOT NULL,
  jitter_us       BIGINT       NOT NULL,
  fingerprint     VARCHAR(64)  NOT NULL,
  paused          BOOLEAN      NOT NULL,
  paused_at       DATETIME(6),
  next_fire_at    DATETIME(6)  NOT NULL,
  last_fire_at    DATETIME(6),
  last_slot_at    DATETIME(6),
  last_message_id BIGINT,
  fired           BIGINT       NOT NULL,
  skipped         BIGINT       NOT NULL,
  version         BIGINT       NOT NULL,
  INDEX ${prefix}schedules_next (next_fire_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
