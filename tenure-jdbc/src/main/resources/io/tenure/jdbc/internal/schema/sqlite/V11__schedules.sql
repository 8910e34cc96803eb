-- Schedules (SPEC §10): one row per name, its definition (the fingerprint tells an unchanged
-- declaration from a changed one) and where it stands. version grows with every change; a fire
-- applies only at the version it was planned from. Times are INTEGER microseconds since the epoch.
CREATE TABLE IF NOT EXISTS ${prefix}schedules (
  name            TEXT    NOT NULL PRIMARY KEY,
  kind            TEXT    NOT NULL,
  expression      TEXT,
  interval_us     INTEGER,
  anchor_at       INTEGER NOT NULL,
  zone            TEXT    NOT NULL,
  queue           TEXT    NOT NULL,
  msg_key         TEXT,
  payload         BLOB    NOT NULL,
  content_type    TEXT    NOT NULL,
  headers         TEXT    NOT NULL,
  priority        INTEGER NOT NULL,
  max_attempts    INTEGER NOT NULL,
  missed          TEXT    NOT NULL,
  missed_after_us INTEGER NOT NULL,
  while_paused    TEXT    NOT NULL,
  jitter_us       INTEGER NOT NULL,
  fingerprint     TEXT    NOT NULL,
  paused          INTEGER NOT NULL,
  paused_at       INTEGER,
  next_fire_at    INTEGER NOT NULL,
  last_fire_at    INTEGER,
  last_slot_at    INTEGER,
  last_message_id INTEGER,
  fired           INTEGER NOT NULL,
  skipped         INTEGER NOT NULL,
  version         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}schedules_next ON ${prefix}schedules (next_fire_at);
