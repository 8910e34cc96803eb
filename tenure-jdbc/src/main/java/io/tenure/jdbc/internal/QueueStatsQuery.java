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

/**
 * Every queue's numbers in one statement (one snapshot), read from the indexes of each status
 * rather than the whole table (issue 15: a scan of the table, dead row versions included, cost 58
 * ms a call at 600,000 dead tuples on PostgreSQL). PostgreSQL and SQLite (schema V7): the queues
 * come from recursive skip scans of the partial indexes of pending, in-flight and finished rows,
 * one probe per queue and index, then each queue's counts from the same indexes' ranges. MariaDB:
 * the queues from a loose scan of V5's (queue, status, id), then its ranges. The age of the oldest
 * available message reads the pending rows (their {@code available_at} is in no index).
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
  private final String sql;

  /**
   * @param statusIndex MariaDB's (queue, status, id) index, named where the plan must use it
   */
  QueueStatsQuery(Jdbc jdbc, String messages, String statusIndex) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.sql = statement(dialect, messages, statusIndex);
  }

  /** The statement, for EXPLAIN and the benchmark. */
  String sql() {
    return sql;
  }

  List<QueueStats> read() {
    if (dialect.name().equals("postgresql")) {
      // The planner prices each queue's subqueries for the 300 queues it assumes a recursive
      // CTE returns, which put the statement past jit_above_cost once the table was analyzed:
      // 355 to 380 ms a call with JIT on 1,000,000 dead tuples, 20 to 30 ms without (see
      // docs/BENCHMARKS.md). SET LOCAL needs a transaction; it ends with it.
      return jdbc.write(
          "read queue stats",
          connection -> {
            try (Statement off = connection.createStatement()) {
              off.execute("SET LOCAL jit = off");
            }
            return read(connection);
          });
    }
    return jdbc.read("read queue stats", this::read);
  }

  private List<QueueStats> read(Connection connection) throws SQLException {
    List<QueueStats> stats = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        Duration age = null;
        if (rows.getObject("oldest") != null) {
          Instant oldest = dialect.getInstant(rows, "oldest");
          Duration waited = Duration.between(oldest, dialect.getInstant(rows, "read_at"));
          age = waited.isNegative() ? Duration.ZERO : waited;
        }
        stats.add(
            new QueueStats(
                rows.getString("queue"),
                rows.getLong("pending"),
                rows.getLong("inflight"),
                rows.getLong("dead"),
                rows.getLong("done"),
                age));
      }
    }
    return List.copyOf(stats);
  }

  private static String statement(Dialect dialect, String messages, String statusIndex) {
    // Each status term repeats its partial index's predicate where that differs, so that SQLite,
    // which matches predicates by their terms, uses the index too. MariaDB's planner, left to
    // itself, counted through the dedupe or lease index and read the rows.
    String finished = "m.status IN ('DONE', 'DEAD') AND ";
    String from =
        " FROM "
            + messages
            + " m"
            + (dialect.supportsReturning() ? "" : " FORCE INDEX (" + statusIndex + ")");
    String counts =
        "SELECT q.queue,"
            + " (SELECT COUNT(*)"
            + from
            + " WHERE m.queue = q.queue AND m.status = 'PENDING') AS pending,"
            + " (SELECT COUNT(*)"
            + from
            + " WHERE m.queue = q.queue AND m.status = 'INFLIGHT') AS inflight,"
            + " (SELECT COUNT(*)"
            + from
            + " WHERE m.queue = q.queue AND "
            + finished
            + "m.status = 'DEAD') AS dead,"
            + " (SELECT COUNT(*)"
            + from
            + " WHERE m.queue = q.queue AND "
            + finished
            + "m.status = 'DONE') AS done,"
            + " (SELECT MIN(m.available_at)"
            + from
            + " WHERE m.queue = q.queue AND m.status = 'PENDING'"
            + " AND m.available_at <= "
            + dialect.now()
            + ") AS oldest, "
            + dialect.now()
            + " AS read_at";
    if (!dialect.supportsReturning()) {
      // MariaDB: V5's (queue, status, id) covers every row, so one loose index scan finds the
      // queues.
      return counts + " FROM (SELECT DISTINCT queue FROM " + messages + ") q ORDER BY q.queue";
    }
    String queues =
        "WITH RECURSIVE "
            + skipScan("p", messages, "f.status = 'PENDING'")
            + ", "
            + skipScan("i", messages, "f.status = 'INFLIGHT'")
            + ", "
            + skipScan("d", messages, "f.status IN ('DONE', 'DEAD')")
            + ", "
            + "q(queue) AS (SELECT queue FROM p WHERE queue IS NOT NULL UNION SELECT queue FROM i WHERE queue IS NOT NULL"
            + " UNION SELECT queue FROM d WHERE queue IS NOT NULL) ";
    return queues + counts + " FROM q ORDER BY q.queue";
  }

  /** The distinct queues of the rows matching {@code where}, one index probe each. */
  private static String skipScan(String name, String messages, String where) {
    return name
        + "(queue) AS (SELECT (SELECT f.queue FROM "
        + messages
        + " f WHERE "
        + where
        + " ORDER BY f.queue LIMIT 1) UNION ALL SELECT (SELECT f.queue FROM "
        + messages
        + " f WHERE "
        + where
        + " AND f.queue > "
        + name
        + ".queue ORDER BY f.queue LIMIT 1) FROM "
        + name
        + " WHERE "
        + name
        + ".queue IS NOT NULL)";
  }
}
