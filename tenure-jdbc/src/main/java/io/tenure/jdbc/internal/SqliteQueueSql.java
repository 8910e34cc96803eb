package io.tenure.jdbc.internal;

import java.util.Optional;

/**
 * How SQLite inserts, claims and reclaims. Writers take turns (one write lock from {@code BEGIN
 * IMMEDIATE} to commit), so no statement locks rows, no peer commits between a claim's read and its
 * write, and an idle poll reads before it takes the lock. The partial indexes are those of
 * PostgreSQL (schema V6, V7).
 */
final class SqliteQueueSql extends StandardQueueSql {
  private static final String ROW =
      """
      (:queue, :key, :payload, :content_type, :headers, :priority, 0, :max_attempts,
        ${now + :delay}, ${PENDING}, ${now}, :dedupe_key, :group, :timeout, :unique_for)""";

  private static final String INSERT =
      """
      INSERT INTO ${messages} (queue, msg_key, payload, content_type, headers, priority, attempts,
        max_attempts, available_at, status, created_at, dedupe_key, msg_group, timeout_us,
        unique_for_us)
      VALUES\s""";

  /** Claims the rows of the candidate CTE {@code c}, returning every column. */
  private static final String CLAIM_C =
      """
      UPDATE ${messages} SET status = ${INFLIGHT}, owner_node = :node, claim_token = :token,
        lease_until = ${now + :lease}, attempts = attempts + 1
      WHERE status = ${PENDING} AND id IN (SELECT id FROM c)
      RETURNING\s"""
          + COLUMNS;

  @Override
  public Inserting inserting() {
    return new Returning(
        INSERT + "/*each ,*/" + ROW + "/*end*/ RETURNING id",
        INSERT
            + ROW
            + " ON CONFLICT (queue, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING"
            + " RETURNING id");
  }

  /**
   * One probe of the pending index (a queue whose pending rows are all delayed or blocked still
   * claims, and finds nothing, under the lock: rare, and bounded by the poll's back-off); the
   * in-flight index holds only in-flight rows.
   */
  @Override
  public Optional<IdleProbes> idleProbes() {
    return Optional.of(
        new IdleProbes(
            "SELECT 1 FROM ${messages} WHERE queue = :queue AND status = ${PENDING} LIMIT 1",
            """
            SELECT 1 FROM ${messages} WHERE status = ${INFLIGHT} AND lease_until < ${now} LIMIT 1
            """));
  }

  /** The queue as a range, for the partial index (queue, id) of pending rows; see PostgreSQL's. */
  @Override
  public String strictCandidates() {
    return """
        SELECT id, CASE WHEN available_at <= ${now} THEN 1 ELSE 0 END AS ready FROM ${messages}
        WHERE queue >= :queue AND queue <= :queue AND status = ${PENDING}
          AND NOT EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = :queue
            AND f.status = ${INFLIGHT})
        ORDER BY queue, id LIMIT :max
        """;
  }

  /**
   * The walk: the first {@code :window} available pending rows in claim order, keeping those whose
   * key is not blocked (an older row of the key pending, or any row of the key in flight: a
   * replayed dead letter keeps its old id). Then, if it fell short, the key heads: the keys by a
   * recursive skip scan of the partial index of pending keyed rows, each key's first entry there,
   * unless a row of the key is in flight. Each candidate set is a MATERIALIZED CTE, claimed in the
   * statement that chose it.
   */
  @Override
  public Claiming claiming() {
    return new TwoStatements(
        """
        WITH c AS MATERIALIZED (
          SELECT c.id FROM (
            SELECT w.id, w.queue, w.msg_key FROM ${messages} w
            WHERE w.queue = :queue AND w.status = ${PENDING} AND w.available_at <= ${now}
              ${pass_full_groups_w}
            ORDER BY w.priority DESC, w.id LIMIT :window) w
          JOIN ${messages} c ON c.id = w.id
          WHERE c.status = ${PENDING} AND c.available_at <= ${now}
            AND (c.msg_key IS NULL
              OR NOT (EXISTS (SELECT 1 FROM ${messages} o WHERE o.queue = c.queue
                  AND o.msg_key = c.msg_key AND o.id < c.id AND o.status = ${PENDING})
                OR EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = c.queue
                  AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key)))
          ORDER BY c.priority DESC, c.id LIMIT :max)
        """
            + CLAIM_C,
        """
        WITH RECURSIVE k(msg_key) AS (
          SELECT (SELECT m.msg_key FROM ${messages} m WHERE m.queue = :queue
            AND m.msg_key IS NOT NULL AND m.status = ${PENDING} ORDER BY m.queue, m.msg_key LIMIT 1)
          UNION ALL
          SELECT (SELECT m.msg_key FROM ${messages} m WHERE m.queue = :queue
            AND m.msg_key > k.msg_key AND m.status = ${PENDING} ORDER BY m.queue, m.msg_key LIMIT 1)
          FROM k WHERE k.msg_key IS NOT NULL),
        c AS MATERIALIZED (
          SELECT c.id FROM ${messages} c
          WHERE c.id IN (SELECT (SELECT m.id FROM ${messages} m WHERE m.queue = :queue
                AND m.msg_key = k.msg_key AND m.status = ${PENDING}
                ORDER BY m.queue, m.msg_key, m.id LIMIT 1)
              FROM k WHERE k.msg_key IS NOT NULL)
            AND c.status = ${PENDING}
            AND NOT EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = c.queue
              AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key)
            AND c.available_at <= ${now} ${pass_full_groups_c}
          ORDER BY c.priority DESC, c.id LIMIT :max)
        """
            + CLAIM_C);
  }

  @Override
  public Overtaking overtaking() {
    return new NoPeers();
  }

  /**
   * The queues with rows in flight by a recursive skip scan of (queue, lease_until), then their
   * expired rows.
   */
  @Override
  public String expired() {
    return """
        WITH RECURSIVE q(queue) AS (
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${INFLIGHT}
            ORDER BY f.queue LIMIT 1)
          UNION ALL
          SELECT (SELECT f.queue FROM ${messages} f WHERE f.status = ${INFLIGHT}
            AND f.queue > q.queue ORDER BY f.queue LIMIT 1)
          FROM q WHERE q.queue IS NOT NULL)
        SELECT id FROM ${messages} m
        WHERE m.queue IN (SELECT queue FROM q WHERE queue IS NOT NULL)
          AND m.status = ${INFLIGHT} AND m.lease_until < ${now}
        ORDER BY m.lease_until LIMIT :limit
        """;
  }

  /** No peer runs while a replay holds the write lock. */
  @Override
  public Optional<String> lockKeyRows() {
    return Optional.empty();
  }
}
