-- Queue control (SPEC §12). A message may carry a group (a tenant, an account) that per-group
-- limits count apart.
ALTER TABLE ${prefix}messages ADD COLUMN msg_group TEXT;
-- One row per queue that was ever paused or limited. Writers take turns, so a claim's count of
-- what is in flight is exact; a queue without a row claims as before. 0 means "no limit". Times
-- are INTEGER microseconds since the epoch.
CREATE TABLE IF NOT EXISTS ${prefix}queue_controls (
  queue              TEXT    NOT NULL PRIMARY KEY,
  paused             INTEGER NOT NULL,
  max_inflight       INTEGER NOT NULL,
  group_max_inflight INTEGER NOT NULL,
  rate_claims        INTEGER NOT NULL,
  rate_interval_us   INTEGER NOT NULL,
  rate_per_group     INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
);
-- The claims of rate-limited queues within their interval: one row per claim (and group, for a
-- per-group rate; '' for the whole queue or messages without a group). A claim deletes its
-- queue's rows older than the interval and sums the rest: an exact sliding window.
CREATE TABLE IF NOT EXISTS ${prefix}queue_claims (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  queue      TEXT    NOT NULL,
  grp        TEXT    NOT NULL,
  claimed_at INTEGER NOT NULL,
  n          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ${prefix}queue_claims_window ON ${prefix}queue_claims (queue, claimed_at);
