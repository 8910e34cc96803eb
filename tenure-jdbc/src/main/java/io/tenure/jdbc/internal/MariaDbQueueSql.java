package io.tenure.jdbc.internal;

import java.util.Optional;

/**
 * How MariaDB inserts, claims, reclaims and locks keys. There is no RETURNING on UPDATE, and a
 * locking read that sorts locks every row it sorts, so a claim chooses its rows by plain reads and
 * locks only those it takes. The key probes name the (queue, status, msg_key, id) index ({@code
 * ${messages_key}}): on a freshly filled table, before InnoDB's statistics caught up, the optimizer
 * picked (queue, status, id) for them and a full index range for the per-key heads, each reading
 * every pending row of the queue (MariaDbClaimCostTest measured 500,499 and 40,991 rows). A
 * key-in-flight probe is a scalar subquery, not EXISTS: an EXISTS correlated by equalities alone is
 * turned into an IN (exists_to_in) and materialized, every in-flight entry of every queue read per
 * claim (MariaDbClaimCostTest: 44,106 rows instead of about 4,100).
 */
final class MariaDbQueueSql extends StandardQueueSql {

  @Override
  public Inserting inserting() {
    return new GeneratedKey(
        """
        INSERT INTO ${messages} (queue, msg_key, payload, content_type, headers, priority, attempts,
          max_attempts, available_at, status, created_at, dedupe_key, msg_group, timeout_us,
        unique_for_us)
        VALUES (:queue, :key, :payload, :content_type, :headers, :priority, 0, :max_attempts,
          ${now + :delay}, ${PENDING}, ${now}, :dedupe_key, :group, :timeout, :unique_for)
        """);
  }

  /** Two index probes of (queue, status, id) and at most {@code :max} rows read. */
  @Override
  public String strictCandidates() {
    return """
        SELECT id, CASE WHEN available_at <= ${now} THEN 1 ELSE 0 END AS ready FROM ${messages}
        WHERE queue = :queue AND queue = :queue AND status = ${PENDING}
          AND NOT EXISTS (SELECT 1 FROM ${messages} f WHERE f.queue = :queue
            AND f.status = ${INFLIGHT})
        ORDER BY id LIMIT :max FOR UPDATE
        """;
  }

  /**
   * The walk: the first {@code :window} available pending rows in claim order, read unlocked,
   * keeping those whose key is not blocked, by two probes of one index entry each: is the row its
   * key's first pending one, and is a row of its key in flight (an IN on the status would make each
   * probe read every older row of the queue). The heads: each key's first pending row by a loose
   * index scan (GROUP BY names the index's leading columns for that), unless a row of its key is in
   * flight; STRAIGHT_JOIN, the heads first, then each one's row (left to itself the optimizer
   * scanned every pending row of the queue as c and looked each up in the heads). Both read twice
   * the rows wanted ({@code :max}), in claim order; {@code lock} then locks the rows still pending,
   * skipping peers'. A row chosen as a key's head stays its head until it is claimed itself, so the
   * lock needs no other check (a replay committing in between is the give-back's).
   */
  @Override
  public Claiming claiming() {
    return new ChooseThenLock(
        """
        SELECT c.id FROM (
          SELECT w.id, w.queue, w.msg_key FROM ${messages} w
          WHERE w.queue = :queue AND w.status = ${PENDING} AND w.available_at <= ${now}
            ${pass_full_groups_w}
          ORDER BY w.priority DESC, w.id LIMIT :window) w
        JOIN ${messages} c ON c.id = w.id
        WHERE c.status = ${PENDING} AND c.available_at <= ${now}
          AND (c.msg_key IS NULL
            OR NOT (c.id <> (SELECT o.id FROM ${messages} o FORCE INDEX (${messages_key})
                WHERE o.queue = c.queue AND o.status = ${PENDING} AND o.msg_key = c.msg_key
                ORDER BY o.id LIMIT 1)
              OR ((SELECT f.id FROM ${messages} f FORCE INDEX (${messages_key})
                WHERE f.queue = c.queue AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key
                LIMIT 1) IS NOT NULL)))
        ORDER BY c.priority DESC, c.id LIMIT :max
        """,
        """
        SELECT STRAIGHT_JOIN c.id FROM (
          SELECT MIN(h.id) AS id FROM ${messages} h FORCE INDEX (${messages_key})
          WHERE h.queue = :queue AND h.status = ${PENDING}
          GROUP BY h.queue, h.status, h.msg_key) k
        JOIN ${messages} c ON c.id = k.id
        WHERE c.msg_key IS NOT NULL AND c.status = ${PENDING}
          AND NOT ((SELECT f.id FROM ${messages} f FORCE INDEX (${messages_key})
            WHERE f.queue = c.queue AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key
            LIMIT 1) IS NOT NULL)
          AND c.queue = :queue AND c.available_at <= ${now} ${pass_full_groups_c}
        ORDER BY c.priority DESC, c.id LIMIT :max
        """,
        """
        SELECT id FROM ${messages} WHERE id IN (:ids) AND status = ${PENDING}
        FOR UPDATE SKIP LOCKED
        """);
  }

  /**
   * The re-check reads, then gives back by id. The key's first pending row, compared: probed by
   * (queue, status, msg_key) with "o.id < c.id" as a filter, as MariaDB planned it, a head with no
   * older row read its key's whole pending backlog.
   */
  @Override
  public Overtaking overtaking() {
    return new FindThenGiveBack(
        """
        SELECT c.id FROM ${messages} c
        WHERE c.claim_token = :token AND c.status = ${INFLIGHT} AND c.id IN (:ids)
          AND (((SELECT o.id FROM ${messages} o FORCE INDEX (${messages_key})
              WHERE o.queue = c.queue AND o.status = ${PENDING} AND o.msg_key = c.msg_key
              ORDER BY o.id LIMIT 1) < c.id)
            OR ((SELECT f.id FROM ${messages} f FORCE INDEX (${messages_key})
              WHERE f.queue = c.queue AND f.status = ${INFLIGHT} AND f.msg_key = c.msg_key
                AND f.id <> c.id
              LIMIT 1) IS NOT NULL))
        """,
        """
        UPDATE ${messages} SET status = ${PENDING}, attempts = attempts - 1,
          owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE status = ${INFLIGHT} AND id IN (:ids)
        """);
  }

  /**
   * The queues by one loose scan of V5's (queue, status, id), which covers every row, then its
   * ranges, named: left to itself the planner counted through the dedupe or lease index and read
   * the rows.
   */
  @Override
  public String stats() {
    return """
        SELECT q.queue,
          (SELECT COUNT(*) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status = ${PENDING}) AS pending,
          (SELECT COUNT(*) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status = ${INFLIGHT}) AS inflight,
          (SELECT COUNT(*) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status IN (${DONE}, ${DEAD}) AND m.status = ${DEAD}) AS dead,
          (SELECT COUNT(*) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status IN (${DONE}, ${DEAD}) AND m.status = ${DONE}) AS done,
          (SELECT COUNT(*) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status = ${CANCELLED}) AS cancelled,
          (SELECT MIN(m.available_at) FROM ${messages} m FORCE INDEX (${messages_status})
            WHERE m.queue = q.queue AND m.status = ${PENDING} AND m.available_at <= ${now}) AS oldest,
          ${now} AS read_at
        FROM (SELECT DISTINCT queue FROM ${messages}) q ORDER BY q.queue
        """;
  }

  @Override
  public String expired() {
    return """
        SELECT id FROM ${messages} m WHERE m.status = ${INFLIGHT} AND m.lease_until < ${now}
        ORDER BY m.lease_until LIMIT :limit FOR UPDATE SKIP LOCKED
        """;
  }

  /** On (queue, status, msg_key, id): InnoDB locks in that index's order, status then id. */
  @Override
  public Optional<String> lockKeyRows() {
    return Optional.of(
        """
        SELECT m.id FROM ${messages} m FORCE INDEX (${messages_key})
        WHERE m.queue = :queue AND (m.status = ${PENDING} OR m.status = ${INFLIGHT})
          AND m.msg_key = :key
        ORDER BY m.id FOR UPDATE
        """);
  }
}
