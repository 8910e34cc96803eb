package io.tenure.jdbc.internal;

import java.util.Optional;

/**
 * The queue statements every database runs as written (standard SQL; the clock and the row locks
 * are the dialect's constants). Each condition on the claim token is {@code claim_token = :token}
 * with the row in flight, so a superseded claim's late outcome changes nothing (SPEC §6.4). The
 * operator's statements on messages are {@link StandardMessageSql}'s.
 */
abstract class StandardQueueSql extends StandardMessageSql {
  /** The columns of a message, in the order the row mapper reads them. */
  static final String COLUMNS =
      "id, queue, msg_key, payload, content_type, headers, priority, attempts, max_attempts,"
          + " available_at, status, owner_node, claim_token, lease_until, last_error, created_at,"
          + " finished_at, dedupe_key, msg_group, timeout_us, unique_for_us, progress, progress_note,"
          + " checkpoint";

  /**
   * The claim's pass over full groups (SPEC §12.1), as sections that vanish unless bound: rows of
   * {@code :full_groups}, and rows without a group if {@code :ungrouped_full} is bound.
   */
  static String groupFilter(String alias) {
    return ("/*if full_groups*/AND (A.msg_group IS NULL OR A.msg_group NOT IN (:full_groups))"
            + "/*end*/ /*if ungrouped_full*/AND A.msg_group IS NOT NULL/*end*/")
        .replace("A.", alias + ".");
  }

  @Override
  public String deduplicated() {
    return "SELECT id FROM ${messages} WHERE queue = :queue AND dedupe_key = :dedupe_key";
  }

  /**
   * By the unique index (queue, dedupe_key): one row, locked; a racing enqueue waits on it and then
   * finds its key gone.
   */
  @Override
  public String releaseDedupeKey() {
    return """
        UPDATE ${messages} SET dedupe_key = NULL
        WHERE queue = :queue AND dedupe_key = :dedupe_key AND unique_for_us IS NOT NULL
          AND status IN (${DONE}, ${DEAD}, ${CANCELLED}) AND ${unique_until} <= ${now}
        """;
  }

  @Override
  public Optional<String> notifyEnqueued() {
    return Optional.empty();
  }

  @Override
  public Optional<IdleProbes> idleProbes() {
    return Optional.empty();
  }

  @Override
  public String claimIds() {
    return """
        UPDATE ${messages} SET status = ${INFLIGHT}, owner_node = :node, claim_token = :token,
          lease_until = ${now + :lease}, attempts = attempts + 1
        WHERE status = ${PENDING} AND id IN (:ids)
        """;
  }

  @Override
  public String selectClaimed() {
    return "SELECT " + COLUMNS + " FROM ${messages} WHERE claim_token = :token AND id IN (:ids)";
  }

  // ---- resolve ----

  @Override
  public String doneKeptIfHeld() {
    return """
        UPDATE ${messages} SET status = ${DONE}, finished_at = ${now},
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE status = ${INFLIGHT} AND claim_token = :token AND id IN (:ids)
        """;
  }

  @Override
  public String deleteIfHeld() {
    return """
        DELETE FROM ${messages}
        WHERE status = ${INFLIGHT} AND claim_token = :token AND id IN (:ids)
        """;
  }

  @Override
  public String releaseIfHeld() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = attempts - 1,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE status = ${INFLIGHT} AND claim_token = :token AND id IN (:ids)
        """;
  }

  @Override
  public String heldClaims() {
    return """
        SELECT id FROM ${messages}
        WHERE status = ${INFLIGHT}
          AND (/*each OR*/(id = :id AND claim_token = :token)/*end*/)${for_update}
        """;
  }

  @Override
  public String doneKept() {
    return """
        UPDATE ${messages} SET status = ${DONE}, finished_at = ${now},
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id IN (:ids)
        """;
  }

  @Override
  public String delete() {
    return "DELETE FROM ${messages} WHERE id IN (:ids)";
  }

  @Override
  public String release() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = attempts - 1,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id IN (:ids)
        """;
  }

  @Override
  public String retry() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, finished_at = NULL,
          available_at = ${now + :in}, last_error = :error,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id = :id
        """;
  }

  @Override
  public String deadLetter() {
    return """
        UPDATE ${messages} SET status = ${DEAD}, finished_at = ${now}, last_error = :error,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id = :id
        """;
  }

  @Override
  public String reschedule() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = attempts - 1,
          available_at = ${now + :in}, owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id = :id
        """;
  }

  @Override
  public String extend() {
    return """
        UPDATE ${messages} SET lease_until = ${now + :lease}
        WHERE id = :id AND claim_token = :token AND status = ${INFLIGHT}
        """;
  }

  // ---- progress and checkpoints ----

  @Override
  public String progress() {
    return """
        UPDATE ${messages} SET progress = :progress, progress_note = :note
        WHERE id = :id AND claim_token = :token AND status = ${INFLIGHT}
        """;
  }

  @Override
  public String checkpoint() {
    return """
        UPDATE ${messages} SET checkpoint = :checkpoint
        WHERE id = :id AND claim_token = :token AND status = ${INFLIGHT}
        """;
  }

  // ---- cancel ----

  @Override
  public String lockStatus() {
    return "SELECT status FROM ${messages} WHERE id = :id${for_update}";
  }

  /** Conditional on the status, so a resolve that committed first wins and this changes nothing. */
  @Override
  public String cancel() {
    return """
        UPDATE ${messages} SET status = ${CANCELLED}, finished_at = ${now},
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id = :id AND status IN (${PENDING}, ${INFLIGHT})
        """;
  }

  @Override
  public String claimStates() {
    return "SELECT id, status, claim_token FROM ${messages} WHERE id IN (:ids)";
  }

  // ---- reclaim and retention ----

  @Override
  public String expiredRows() {
    return "SELECT " + COLUMNS + " FROM ${messages} WHERE id IN (:ids)";
  }

  @Override
  public String repend() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, available_at = ${now},
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE status = ${INFLIGHT} AND lease_until < ${now} AND id IN (:ids)
        """;
  }

  @Override
  public String deadExpired() {
    return """
        UPDATE ${messages} SET status = ${DEAD}, last_error = :error, finished_at = ${now},
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE status = ${INFLIGHT} AND lease_until < ${now} AND id IN (:ids)
        """;
  }

  /** The status is a literal: a partial index serves only a statement whose text implies it. */
  @Override
  public String finished() {
    return """
        SELECT id FROM ${messages}
        WHERE queue = :queue AND status = :status AND finished_at <= ${now - :age}
          AND (dedupe_key IS NULL OR unique_for_us IS NULL OR ${unique_until} <= ${now})
        ORDER BY id LIMIT :limit
        """;
  }

  @Override
  public String deleteFinished() {
    return "DELETE FROM ${messages} WHERE status = :status AND id IN (:ids)";
  }

  // ---- stats ----

  /**
   * The queues from recursive skip scans of the partial indexes of pending, in-flight, finished
   * (schema V7) and cancelled (V13) rows, one probe per queue and index, then each queue's counts
   * from the same indexes' ranges. Each status term repeats its partial index's predicate where
   * that differs, so that SQLite, which matches predicates by their terms, uses the index too.
   */
  @Override
  public String stats() {
    return """
        WITH RECURSIVE
        p(queue) AS (
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${PENDING}
            ORDER BY f.queue LIMIT 1)
          UNION ALL SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${PENDING}
            AND f.queue > p.queue ORDER BY f.queue LIMIT 1)
          FROM p WHERE p.queue IS NOT NULL),
        i(queue) AS (
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${INFLIGHT}
            ORDER BY f.queue LIMIT 1)
          UNION ALL SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${INFLIGHT}
            AND f.queue > i.queue ORDER BY f.queue LIMIT 1)
          FROM i WHERE i.queue IS NOT NULL),
        d(queue) AS (
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status IN (${DONE}, ${DEAD})
            ORDER BY f.queue LIMIT 1)
          UNION ALL SELECT (SELECT f.queue FROM ${messages} f WHERE f.status IN (${DONE}, ${DEAD})
            AND f.queue > d.queue ORDER BY f.queue LIMIT 1)
          FROM d WHERE d.queue IS NOT NULL),
        c(queue) AS (
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${CANCELLED}
            ORDER BY f.queue LIMIT 1)
          UNION ALL SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${CANCELLED}
            AND f.queue > c.queue ORDER BY f.queue LIMIT 1)
          FROM c WHERE c.queue IS NOT NULL),
        q(queue) AS (
          SELECT queue FROM p WHERE queue IS NOT NULL
          UNION SELECT queue FROM i WHERE queue IS NOT NULL
          UNION SELECT queue FROM d WHERE queue IS NOT NULL
          UNION SELECT queue FROM c WHERE queue IS NOT NULL)
        SELECT q.queue,
          (SELECT COUNT(*) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status = ${PENDING}) AS pending,
          (SELECT COUNT(*) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status = ${INFLIGHT}) AS inflight,
          (SELECT COUNT(*) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status IN (${DONE}, ${DEAD}) AND m.status = ${DEAD}) AS dead,
          (SELECT COUNT(*) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status IN (${DONE}, ${DEAD}) AND m.status = ${DONE}) AS done,
          (SELECT COUNT(*) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status = ${CANCELLED}) AS cancelled,
          (SELECT MIN(m.available_at) FROM ${messages} m
            WHERE m.queue = q.queue AND m.status = ${PENDING} AND m.available_at <= ${now}) AS oldest,
          ${now} AS read_at
        FROM q ORDER BY q.queue
        """;
  }

  @Override
  public Optional<String> statsSetting() {
    return Optional.empty();
  }
}
