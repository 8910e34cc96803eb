package io.tenure.jdbc.internal;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.ReclaimRule;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Expired leases (SPEC §6.4) and retention (SPEC §6.7). A reclaim changes only rows still in flight
 * with their lease expired by the database's clock, so a lease extended meanwhile is left alone;
 * whether an expired row is re-pended or dead is the caller's {@link ReclaimRule}, never decided
 * here.
 */
final class Reclaims {
  private final QueueContext context;
  private final IdleReads idleReads;
  private final NamedStatement expired;
  private final NamedStatement expiredRows;
  private final NamedStatement repend;
  private final NamedStatement deadExpired;
  private final NamedStatement finished;
  private final NamedStatement deleteFinished;

  Reclaims(QueueContext context, IdleReads idleReads) {
    this.context = context;
    this.idleReads = idleReads;
    QueueSql sql = context.sql();
    this.expired = context.statement(sql.expired());
    this.expiredRows = context.statement(sql.expiredRows());
    this.repend = context.statement(sql.repend());
    this.deadExpired = context.statement(sql.deadExpired());
    this.finished = context.statement(sql.finished());
    this.deleteFinished = context.statement(sql.deleteFinished());
  }

  int reclaimExpired(int limit, ReclaimRule rule) {
    checkLimit(limit);
    Objects.requireNonNull(rule, "rule");
    if (!idleReads.mayHaveExpired()) {
      return 0;
    }
    return context
        .jdbc()
        .write(
            "reclaim expired messages",
            connection -> {
              List<Long> ids = expired.ids(connection, Params.of("limit", limit));
              return ids.isEmpty() ? 0 : apply(connection, ids, rule);
            });
  }

  /**
   * Asks the rule about every expired row before writing any, so a rule that throws rolls the whole
   * transaction back; then one statement for the re-pends and one per distinct error for the dead.
   */
  private int apply(Connection connection, List<Long> ids, ReclaimRule rule) throws SQLException {
    List<Long> repends = new ArrayList<>();
    Map<String, List<Long>> deadByError = new LinkedHashMap<>();
    for (QueueMessage message :
        expiredRows.query(connection, Params.of("ids", ids), context.rows()::message)) {
      switch (Objects.requireNonNull(rule.decide(message), "decision")) {
        case ReclaimRule.Repend repend -> repends.add(message.id());
        case ReclaimRule.Dead dead ->
            deadByError.computeIfAbsent(dead.error(), e -> new ArrayList<>()).add(message.id());
      }
    }
    int changed = repends.isEmpty() ? 0 : repend.update(connection, Params.of("ids", repends));
    for (Map.Entry<String, List<Long>> dead : deadByError.entrySet()) {
      changed +=
          deadExpired.update(
              connection, Params.of("error", dead.getKey()).and("ids", dead.getValue()));
    }
    return changed;
  }

  int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    checkLimit(limit);
    return context
        .jdbc()
        .write(
            "delete expired messages of queue " + queue,
            connection ->
                deleteFinished(connection, queue, MessageStatus.DONE, doneFor, limit)
                    + deleteFinished(connection, queue, MessageStatus.CANCELLED, deadFor, limit)
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
