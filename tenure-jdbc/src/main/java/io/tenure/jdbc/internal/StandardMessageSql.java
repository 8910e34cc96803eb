package io.tenure.jdbc.internal;

/**
 * The operator's statements on messages that every database runs as written (SPEC §6.7, §12.7):
 * reading and filtering messages, replaying and purging dead letters, and deleting, running now and
 * retrying one message. Each write is conditional on the row's status in its own text, so a claim
 * that commits first wins and the write changes nothing.
 */
abstract class StandardMessageSql implements QueueSql {
  @Override
  public String find() {
    return "SELECT " + StandardQueueSql.COLUMNS + " FROM ${messages} WHERE id = :id";
  }

  /**
   * The filter's conditions in a fixed order, each only if its value is given; the error is a plain
   * substring (no LIKE wildcards from the caller's text).
   */
  @Override
  public String list() {
    return "SELECT "
        + StandardQueueSql.COLUMNS
        + """
         FROM ${messages}
        WHERE queue = :queue /*if status*/AND status = :status/*end*/
          /*if key*/AND msg_key = :key/*end*/ /*if group*/AND msg_group = :group/*end*/
          /*if error_contains*/AND last_error IS NOT NULL AND ${error_at} > 0/*end*/
          /*if older_than*/AND created_at <= ${now - :older_than}/*end*/
          AND id > :after_id ORDER BY id LIMIT :limit
        """;
  }

  @Override
  public String lockDeadMatching() {
    return """
        SELECT id, queue, msg_key FROM ${messages}
        WHERE queue = :queue AND status = ${DEAD}
          /*if key*/AND msg_key = :key/*end*/ /*if group*/AND msg_group = :group/*end*/
          /*if error_contains*/AND last_error IS NOT NULL AND ${error_at} > 0/*end*/
          /*if older_than*/AND created_at <= ${now - :older_than}/*end*/
        ORDER BY id LIMIT :limit${for_update}
        """;
  }

  @Override
  public String lockDead() {
    return """
        SELECT id, queue, msg_key FROM ${messages}
        WHERE id = :id AND status = ${DEAD}${for_update}
        """;
  }

  @Override
  public String replayMatching() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = 0, available_at = ${now},
          finished_at = NULL
        WHERE status = ${DEAD} AND id IN (:ids)
        """;
  }

  @Override
  public String replayOne() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = 0, available_at = ${now},
          finished_at = NULL
        WHERE id = :id AND status = ${DEAD}
        """;
  }

  @Override
  public String deadMatching() {
    return """
        SELECT id FROM ${messages}
        WHERE queue = :queue AND status = ${DEAD}
          /*if key*/AND msg_key = :key/*end*/ /*if group*/AND msg_group = :group/*end*/
          /*if error_contains*/AND last_error IS NOT NULL AND ${error_at} > 0/*end*/
          /*if older_than*/AND created_at <= ${now - :older_than}/*end*/
        ORDER BY id LIMIT :limit${for_update}
        """;
  }

  @Override
  public String purge() {
    return "DELETE FROM ${messages} WHERE status = ${DEAD} AND id IN (:ids)";
  }

  // ---- one message (SPEC §12.7) ----

  /** Conditional on the status, so a claim that committed first wins and this deletes nothing. */
  @Override
  public String deleteUnlessInFlight() {
    return "DELETE FROM ${messages} WHERE id = :id AND status <> ${INFLIGHT}";
  }

  @Override
  public String runNow() {
    return """
        UPDATE ${messages} SET available_at = ${now}
        WHERE id = :id AND status = ${PENDING} AND available_at > ${now}
        """;
  }

  @Override
  public String lockRetryable() {
    return """
        SELECT id, queue, msg_key FROM ${messages}
        WHERE id = :id AND status IN (${DEAD}, ${CANCELLED})${for_update}
        """;
  }

  @Override
  public String retryOne() {
    return """
        UPDATE ${messages} SET status = ${PENDING}, attempts = 0, available_at = ${now},
          finished_at = NULL, owner_node = NULL, claim_token = NULL, lease_until = NULL
        WHERE id = :id AND status IN (${DEAD}, ${CANCELLED})
        """;
  }
}
