package io.tenure.jdbc.internal;

import io.tenure.MessageStatus;
import io.tenure.jdbc.internal.NamedStatement.Params;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Expired leases (SPEC §6.5) and retention (SPEC §6.8). A reclaim changes only rows still in flight
 * with their lease expired by the database's clock, so a lease extended meanwhile is left alone.
 */
final class Reclaims {
  static final String LAST_ATTEMPT_EXPIRED = "lease expired on its last attempt";

  private final QueueContext context;
  private final IdleReads idleReads;
  private final NamedStatement expired;
  private final NamedStatement reclaim;
  private final NamedStatement finished;
  private final NamedStatement deleteFinished;

  Reclaims(QueueContext context, IdleReads idleReads) {
    this.context = context;
    this.idleReads = idleReads;
    QueueSql sql = context.sql();
    this.expired = context.statement(sql.expired());
    this.reclaim = context.statement(sql.reclaim());
    this.finished = context.statement(sql.finished());
    this.deleteFinished = context.statement(sql.deleteFinished());
  }

  int reclaimExpired(int limit) {
    checkLimit(limit);
    if (!idleReads.mayHaveExpired()) {
      return 0;
    }
    return context
        .jdbc()
        .write(
            "reclaim expired messages",
            connection -> {
              List<Long> ids = expired.ids(connection, Params.of("limit", limit));
              if (ids.isEmpty()) {
                return 0;
              }
              return reclaim.update(
                  connection, Params.of("error", LAST_ATTEMPT_EXPIRED).and("ids", ids));
            });
  }

  int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    checkLimit(limit);
    return context
        .jdbc()
        .write(
            "delete expired messages of queue " + queue,
            connection ->
                deleteFinished(connection, queue, MessageStatus.DONE, doneFor, limit)
                    + deleteFinished(connection, queue, MessageStatus.DEAD, deadFor, limit));
  }

  private int deleteFinished(
      Connection connection, String queue, MessageStatus status, Duration age, int limit)
      throws SQLException {
    List<Long> ids =
        finished.ids(
            connection,
            Params.of("queue", queue).and("status", status).and("age", age).and("limit", limit));
    return deleteFinished.updateInChunks(connection, Params.of("status", status), ids);
  }

  static void checkLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }
}
