package io.tenure.jdbc.internal;

import java.util.Optional;

/**
 * How PostgreSQL inserts, claims, reclaims and locks keys. The partial indexes these statements
 * lean on are schema V6 and V7: pending keyed rows by (queue, msg_key, id), in-flight keyed rows,
 * pending rows by (queue, id), in-flight rows by (queue, lease_until).
 */
final class PostgresQueueSql extends StandardQueueSql {
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
   * The resolves of a done or released batch take their ids as one array: one statement text for
   * any batch, which PostgreSQL parses and plans once per connection, and one statement for the
   * whole batch where an IN list took one per 250 ids, each of its own length planned anew.
   */
  @Override
  public String deleteIfHeld() {
    return inArray(super.deleteIfHeld());
  }

  @Override
  public String doneKeptIfHeld() {
    return inArray(super.doneKeptIfHeld());
  }

  @Override
  public String releaseIfHeld() {
    return inArray(super.releaseIfHeld());
  }

  private static String inArray(String statement) {
    if (!statement.contains("id IN (:ids)")) {
      throw new IllegalStateException("no id IN (:ids) in " + statement + "; a bug");
    }
    return statement.replace("id IN (:ids)", "id = ANY(:ids)");
  }

  @Override
  public Optional<String> notifyEnqueued() {
    return Optional.of("SELECT pg_notify(:channel, :queue)");
  }

  /**
   * The queue as a range, ordered by (queue, id), which only the partial index (queue, id) of
   * pending rows provides: with "queue = ? ORDER BY id" the planner took the primary key, reading
   * every older row of every queue before the first of this one.
   */
  @Override
  public String strictCandidates() {
    return """
        SELECT id, CASE WHEN available_at <= ${now} THEN 1 ELSE 0 END AS ready FROM ${messages}
        WHERE queue >= :queue AND queue <= :queue AND status = ${PENDING}
          AND NOT EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = :queue
            AND f.status = ${INFLIGHT})
        ORDER BY queue, id LIMIT :max FOR UPDATE
        """;
  }

  /**
   * One statement, so a short claim (every pickup from an idle queue) costs one round trip.
   *
   * <p>{@code k}: the keys with pending rows, by a recursive skip scan of the partial index of
   * pending keyed rows. {@code walked}: the first {@code :window} available pending rows in claim
   * order (priority, then id), locked by their own index scan skipping peers' rows (so those do not
   * count against the window), streamed through the key check until {@code :max}: an unkeyed
   * queue's claim reads and locks only the rows it takes. A keyed row waits while an older row of
   * its key is pending or any row of its key is in flight (a replayed dead letter keeps its old id,
   * so the in-flight row can be younger). A blocked row passed over stays locked until commit;
   * peers skip it, and it is blocked anyway. {@code heads}: each key's first pending row with no
   * row of its key in flight, not already walked (without that, with statistics, the planner filled
   * a second place with the walked row: PostgresClaimStepsTest), read only when the walk fell short
   * (a CTE is evaluated only as far as it is read). {@code c} is MATERIALIZED: as a plain IN
   * subquery PostgreSQL may run its LIMIT more than once and claim more rows than asked.
   */
  @Override
  public Claiming claiming() {
    return new OneStatement(
        """
        WITH RECURSIVE k(msg_key) AS (
          SELECT (SELECT m.msg_key FROM ${messages} m WHERE m.queue = :queue
            AND m.msg_key IS NOT NULL AND m.status = ${PENDING} ORDER BY m.queue, m.msg_key LIMIT 1)
          UNION ALL
          SELECT (SELECT m.msg_key FROM ${messages} m WHERE m.queue = :queue
            AND m.msg_key > k.msg_key AND m.status = ${PENDING} ORDER BY m.queue, m.msg_key LIMIT 1)
          FROM k WHERE k.msg_key IS NOT NULL),
        walked AS MATERIALIZED (
          SELECT w.id FROM (
            SELECT w.id, w.queue, w.msg_key FROM ${messages} w
            WHERE w.queue = :queue AND w.status = ${PENDING} AND w.available_at <= ${now}
              ${pass_full_groups_w}
            ORDER BY w.priority DESC, w.id LIMIT :window FOR UPDATE SKIP LOCKED) w
          WHERE w.msg_key IS NULL
            OR NOT (EXISTS (SELECT 1 FROM ${messages} o WHERE o.queue = w.queue
                AND o.msg_key = w.msg_key AND o.id < w.id AND o.status = ${PENDING})
              OR EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = w.queue
                AND f.status = ${INFLIGHT} AND f.msg_key = w.msg_key))
          LIMIT :max),
        heads AS MATERIALIZED (
          SELECT c.id FROM ${messages} c
          WHERE c.id IN (SELECT (SELECT m.id FROM ${messages} m WHERE m.queue = :queue
                AND m.msg_key = k.msg_key AND m.status = ${PENDING}
                ORDER BY m.queue, m.msg_key, m.id LIMIT 1)
              FROM k WHERE k.msg_key IS NOT NULL)
            AND c.status = ${PENDING}
            AND NOT EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = c.queue
              AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key)
            AND c.available_at <= ${now} AND c.id NOT IN (SELECT id FROM walked)
            ${pass_full_groups_c}
          ORDER BY c.priority DESC, c.id LIMIT :max FOR UPDATE SKIP LOCKED),
        c AS MATERIALIZED (
          SELECT id FROM walked
          UNION ALL SELECT id FROM heads WHERE (SELECT count(*) FROM walked) < :max
          LIMIT :max)
        UPDATE ${messages} SET status = ${INFLIGHT}, owner_node = :node, claim_token = :token,
          lease_until = ${now + :lease}, attempts = attempts + 1
        WHERE status = ${PENDING} AND id IN (SELECT id FROM c)
        RETURNING\s"""
            + COLUMNS,
        UNKEYED_CLAIM);
  }

  /**
   * The drain's claim: a queue with no keyed row pending needs none of the key predicates, and this
   * plain statement plans in 0.5 ms where the one above took 2.3 to 6.2 ms (a claim of 500;
   * PostgreSQL plans both on every call, as it prices their generic plans at twice their custom
   * ones: docs/QUEUE.md). The uncorrelated NOT EXISTS is one probe of the partial index of pending
   * keyed rows, run once (a one-time filter): while any keyed row is pending the statement claims
   * nothing, so it never takes an unkeyed row ahead of an older or higher-priority keyed one, and
   * the caller runs the full claim. {@code w.msg_key IS NULL} keeps even a keyed row committed
   * after that probe out of this claim: it skips the FIFO checks only for rows that have none.
   */
  private static final String UNKEYED_CLAIM =
      """
      WITH c AS MATERIALIZED (
        SELECT w.id FROM ${messages} w
        WHERE w.queue = :queue AND w.status = ${PENDING} AND w.available_at <= ${now}
          AND w.msg_key IS NULL
          AND NOT EXISTS (SELECT 1 FROM ${messages} k WHERE k.queue = :queue
            AND k.msg_key IS NOT NULL AND k.status = ${PENDING})
        ORDER BY w.priority DESC, w.id LIMIT :max FOR UPDATE SKIP LOCKED)
      UPDATE ${messages} SET status = ${INFLIGHT}, owner_node = :node, claim_token = :token,
        lease_until = ${now + :lease}, attempts = attempts + 1
      WHERE status = ${PENDING} AND id IN (SELECT id FROM c)
      RETURNING\s"""
          + COLUMNS;

  /**
   * The planner prices each queue's subqueries of the stats for the 300 queues it assumes a
   * recursive CTE returns, which put the statement past jit_above_cost once the table was analyzed:
   * 355 to 380 ms a call with JIT on 1,000,000 dead tuples, 20 to 30 ms without (see
   * docs/BENCHMARKS.md). SET LOCAL ends with the read's transaction.
   */
  @Override
  public Optional<String> statsSetting() {
    return Optional.of("SET LOCAL jit = off");
  }

  /** The check and the give-back in one statement, which as a rule changes nothing. */
  @Override
  public Overtaking overtaking() {
    return new GiveBackReturning(
        """
        UPDATE ${messages} c SET status = ${PENDING}, attempts = attempts - 1,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE c.claim_token = :token AND c.status = ${INFLIGHT} AND c.id IN (:ids)
          AND (EXISTS (SELECT 1 FROM ${messages} o WHERE o.queue = c.queue
              AND o.msg_key = c.msg_key AND o.id < c.id AND o.status = ${PENDING})
            OR EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = c.queue
              AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key AND f.id <> c.id))
        RETURNING c.id
        """);
  }

  /**
   * The queues with rows in flight by a recursive skip scan of (queue, lease_until), then each
   * queue's expired range by its own index scan (left to an IN over the queues, the planner read
   * the whole in-flight index for the lease condition): one probe per such queue plus the expired
   * rows, not every row in flight.
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
        SELECT e.id FROM q CROSS JOIN LATERAL (
          SELECT m.id, m.lease_until FROM ${messages} m
          WHERE m.queue = q.queue AND m.status = ${INFLIGHT} AND m.lease_until < ${now}
          ORDER BY m.lease_until LIMIT :limit FOR UPDATE SKIP LOCKED) e
        WHERE q.queue IS NOT NULL ORDER BY e.lease_until LIMIT :limit
        """;
  }

  /**
   * An OR, not an IN: PostgreSQL matches each arm to its partial index (pending keyed rows, keyed
   * rows in flight), where an IN made it scan the table. Locked in id order (its ORDER BY's).
   */
  @Override
  public Optional<String> lockKeyRows() {
    return Optional.of(
        """
        SELECT m.id FROM ${messages} m
        WHERE m.queue = :queue AND (m.status = ${PENDING} OR m.status = ${INFLIGHT})
          AND m.msg_key = :key
        ORDER BY m.id FOR UPDATE
        """);
  }
}
