package io.tenure.jdbc.internal;

import io.tenure.QueueStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every queue's numbers in one statement (one snapshot, the database's {@link QueueSql#stats}),
 * read from the indexes of each status rather than the whole table (issue 15: a scan of the table,
 * dead row versions included, cost 58 ms a call at 600,000 dead tuples on PostgreSQL). PostgreSQL
 * and SQLite (schema V7): the queues come from recursive skip scans of the partial indexes of
 * pending, in-flight and finished rows, one probe per queue and index, then each queue's counts
 * from the same indexes' ranges. MariaDB: the queues from a loose scan of V5's (queue, status, id),
 * then its ranges. The age of the oldest available message reads the pending rows (their {@code
 * available_at} is in no index).
 *
 * <p>On PostgreSQL a partial index keeps, until a vacuum, an entry for each dead version of a row
 * that matched it (every claim leaves one in the pending indexes). These probes are plain index
 * scans, which mark the entries of dead rows they meet as dead, so the next read skips them without
 * visiting the table: the first read after heavy churn pays for the dead rows once, the following
 * ones pay for the index pages only. (A single pass grouped by queue was tried: the planner runs it
 * as a bitmap scan, which marks nothing, and it visited every dead row on every call.)
 */
final class QueueStatsQuery {
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final NamedStatement stats;
  private final Optional<String> setting;

  QueueStatsQuery(QueueContext context) {
    this.jdbc = context.jdbc();
    this.dialect = context.dialect();
    this.stats = context.statement(context.sql().stats());
    this.setting = context.sql().statsSetting();
  }

  /** The statement, for EXPLAIN and the benchmark. */
  String sql() {
    return stats.text();
  }

  List<QueueStats> read() {
    if (setting.isEmpty()) {
      return jdbc.read("read queue stats", this::read);
    }
    // The setting needs a transaction of its own; it ends with it.
    return jdbc.write(
        "read queue stats",
        connection -> {
          try (Statement set = connection.createStatement()) {
            set.execute(setting.get());
          }
          return read(connection);
        });
  }

  private List<QueueStats> read(Connection connection) throws SQLException {
    List<QueueStats> found = new ArrayList<>();
    try (PreparedStatement statement = stats.prepare(connection, NamedStatement.Params.of());
        ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        Duration age = null;
        if (rows.getObject("oldest") != null) {
          Instant oldest = dialect.getInstant(rows, "oldest");
          Duration waited = Duration.between(oldest, dialect.getInstant(rows, "read_at"));
          age = waited.isNegative() ? Duration.ZERO : waited;
        }
        found.add(
            new QueueStats(
                rows.getString("queue"),
                rows.getLong("pending"),
                rows.getLong("inflight"),
                rows.getLong("dead"),
                rows.getLong("done"),
                rows.getLong("cancelled"),
                age));
      }
    }
    return List.copyOf(found);
  }
}
