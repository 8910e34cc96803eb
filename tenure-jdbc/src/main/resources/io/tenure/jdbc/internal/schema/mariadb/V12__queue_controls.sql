-- Queue control (SPEC §12). A message may carry a group (a tenant, an account) that per-group
-- limits count apart. Nullable without a default: InnoDB adds it without rebuilding the table.
ALTER TABLE ${prefix}messages ADD COLUMN IF NOT EXISTS msg_group VARCHAR(255);
-- One row per queue that was ever paused or limited. A claim of the queue locks its row first, so
-- the claims of a controlled queue take turns and each counts what is in flight after the one
-- before it committed; a queue without a row claims as before. 0 means "no limit". Times are UTC.
CREATE TABLE IF NOT EXISTS ${prefix}queue_controls (
  queue              VARCHAR(128) NOT NULL PRIMARY KEY,
  paused             BOOLEAN      NOT NULL,
  max_inflight       INT          NOT NULL,
  group_max_inflight INT          NOT NULL,
  rate_claims        INT          NOT NULL,
  rate_interval_us   BIGINT       NOT NULL,
  rate_per_group     BOOLEAN      NOT NULL,
  updated_at         DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- The claims of rate-limited queues within their interval: one row per claim (and group, for a
-- per-group rate; '' for the whole queue or messages without a group). A claim deletes its
-- queue's rows older than the interval and sums the rest: an exact sliding window.
CREATE TABLE IF NOT EXISTS ${prefix}queue_claims (
  id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  queue      VARCHAR(128) NOT NULL,
  grp        VARCHAR(255) NOT NULL,
  claimed_at DATETIME(6)  NOT NULL,
  n          INT          NOT NULL,
  INDEX ${prefix}queue_claims_window (queue, claimed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
