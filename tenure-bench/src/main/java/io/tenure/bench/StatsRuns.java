package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.QUEUE;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.jdbcUrl;

import io.tenure.jdbc.JdbcStore;
import io.tenure.jdbc.QueueStatements;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code Queue.stats()} on a bloated table (issue 15): the statement before (one scan of the whole
 * table, dead row versions included) and the index-served one, side by side in one run on the same
 * table. PostgreSQL: 1,000 pending and 100 in-flight messages live, behind 1,000,000 rows inserted
 * then deleted with autovacuum off for the table (1,000,000 dead tuples), with payloads of 16 bytes
 * and of 1 KiB; then, vacuumed, with 1,000,000 dead letters (status DEAD) live. SQLite and MariaDB:
 * the new statement's plan.
 */
final class StatsRuns {
  private static final int CALLS = 20;
  private static final int LIVE_PENDING = 1000;
  private static final int LIVE_INFLIGHT = 100;

  /** Payload sizes of the deleted rows: tiny, and a small JSON document's. */
  private static final List<Integer> PAYLOADS = List.of(16, 1024);

  private StatsRuns() {}

  /** The statement of schema V7 before issue 15, as the queue store ran it. */
  private static String before(String messages, String now) {
    return "SELECT queue,"
        + " SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END) AS pending,"
        + " SUM(CASE WHEN status = 'INFLIGHT' THEN 1 ELSE 0 END) AS inflight,"
        + " SUM(CASE WHEN status = 'DEAD' THEN 1 ELSE 0 END) AS dead,"
        + " SUM(CASE WHEN status = 'DONE' THEN 1 ELSE 0 END) AS done,"
        + " MIN(CASE WHEN status = 'PENDING' AND available_at <= "
        + now
        + " THEN available_at END)"
        + " AS oldest, "
        + now
        + " AS read_at"
        + " FROM "
        + messages
        + " GROUP BY queue ORDER BY queue";
  }

  static void run(String postgres, String sqlite, String mariadb, int deadTuples) throws Exception {
    System.out.println(
        "| table | statement | first call (ms) | median of " + CALLS + " (ms) | slowest (ms) |");
    System.out.println("| --- | --- | --- | --- | --- |");
    for (int payload : PAYLOADS) {
      TablePrefix prefix = freshPrefix();
      try (JdbcStore store = JdbcStore.builder().url(postgres).prefix(prefix).build();
          Connection raw = DriverManager.getConnection(postgres)) {
        String messages = prefix.table("messages");
        try (Statement s = raw.createStatement()) {
          s.execute(
              "ALTER TABLE "
                  + messages
                  + " SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)");
          s.execute(insert(messages, deadTuples, "PENDING", payload));
          s.execute("DELETE FROM " + messages);
        }
        live(store.queues());
        compare(
            store,
            raw,
            messages,
            String.format(
                Locale.ROOT,
                "%,d dead tuples, %,d-byte payloads, autovacuum off",
                deadTuples,
                payload));
        if (payload == PAYLOADS.get(PAYLOADS.size() - 1)) {
          System.out.println();
          System.out.println(
              "PostgreSQL, EXPLAIN (ANALYZE, BUFFERS) of the new statement, on the table above:");
          print(raw, "EXPLAIN (ANALYZE, BUFFERS) " + statement(store));
          System.out.println();
        }
        if (payload == PAYLOADS.get(0)) {
          // A healthy table instead: vacuumed (as autovacuum would), with that many dead letters.
          try (Statement s = raw.createStatement()) {
            s.execute("VACUUM " + messages);
            s.execute(insert(messages, deadTuples, "DEAD", payload));
            s.execute("VACUUM ANALYZE " + messages);
          }
          compare(
              store,
              raw,
              messages,
              String.format(Locale.ROOT, "%,d dead letters (status DEAD), vacuumed", deadTuples));
          System.out.println();
          System.out.println(
              "PostgreSQL, EXPLAIN (ANALYZE, BUFFERS) of the new statement, on the table above:");
          print(raw, "EXPLAIN (ANALYZE, BUFFERS) " + statement(store));
          System.out.println();
        }
      } finally {
        cleanUp(postgres, prefix);
      }
    }
    for (String url : List.of(sqlite, mariadb)) {
      explainSmall(url);
    }
  }

  private static String insert(String messages, int rows, String status, int payload) {
    return "INSERT INTO "
        + messages
        + " (queue, payload, content_type, headers, priority, attempts, max_attempts,"
        + " available_at, status, created_at, finished_at) SELECT '"
        + QUEUE
        + "', convert_to(repeat('x', "
        + payload
        + "), 'UTF8'), 'text/plain', '', 0, 1, 3, now(), '"
        + status
        + "', now(), "
        + (status.equals("DEAD") ? "now()" : "NULL")
        + " FROM generate_series(1, "
        + rows
        + ")";
  }

  private static void live(QueueStore queues) {
    for (int i = 0; i < LIVE_PENDING + LIVE_INFLIGHT; i += 1000) {
      int n = Math.min(1000, LIVE_PENDING + LIVE_INFLIGHT - i);
      queues.enqueue(
          new ArrayList<>(
              Collections.nCopies(
                  n,
                  new NewMessage(
                      QUEUE,
                      null,
                      new byte[] {1},
                      "text/plain",
                      Map.of(),
                      0,
                      3,
                      Duration.ZERO,
                      null))));
    }
    queues.claim(ClaimRequest.of(QUEUE, "bench-node", LIVE_INFLIGHT, Duration.ofMinutes(30)));
  }

  private static String statement(JdbcStore store) {
    return QueueStatements.of(store).stats().text();
  }

  /** First calls, then {@value #CALLS} calls of each, alternating, so a slow spell hits both. */
  private static void compare(JdbcStore store, Connection raw, String messages, String table)
      throws SQLException {
    String old = before(messages, "CURRENT_TIMESTAMP");
    long[] oldTimes = new long[CALLS + 1];
    long[] newTimes = new long[CALLS + 1];
    for (int i = 0; i <= CALLS; i++) {
      long start = System.nanoTime();
      try (Statement s = raw.createStatement();
          ResultSet rows = s.executeQuery(old)) {
        while (rows.next()) {
          rows.getLong("pending");
        }
      }
      oldTimes[i] = System.nanoTime() - start;
      start = System.nanoTime();
      store.queues().stats();
      newTimes[i] = System.nanoTime() - start;
    }
    System.out.println(line(table, "before (one scan of the table)", oldTimes));
    System.out.println(line(table, "new (the indexes)", newTimes));
  }

  private static String line(String table, String statement, long[] times) {
    long[] rest = Arrays.copyOfRange(times, 1, times.length);
    Arrays.sort(rest);
    return String.format(
        Locale.ROOT,
        "| %s | %s | %.1f | %.2f | %.2f |",
        table,
        statement,
        times[0] / 1e6,
        rest[rest.length / 2] / 1e6,
        rest[rest.length - 1] / 1e6);
  }

  /** The new statement's plan on a small table of every status. */
  private static void explainSmall(String url) throws Exception {
    TablePrefix prefix = freshPrefix();
    try (JdbcStore store = JdbcStore.builder().url(url).prefix(prefix).build();
        Connection raw = DriverManager.getConnection(jdbcUrl(url))) {
      QueueStore queues = store.queues();
      live(queues);
      System.out.println();
      boolean sqlite = url.startsWith("sqlite:");
      System.out.println(
          (sqlite ? "SQLite, EXPLAIN QUERY PLAN" : "MariaDB, EXPLAIN") + " of the new statement:");
      print(raw, (sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN ") + statement(store));
    } finally {
      cleanUp(url, prefix);
    }
  }

  private static void print(Connection raw, String sql) throws SQLException {
    if (sql.startsWith("EXPLAIN (ANALYZE")) {
      try (Statement s = raw.createStatement()) {
        s.execute("SET jit = off"); // as the store reads it
      }
    }
    try (Statement s = raw.createStatement();
        ResultSet rows = s.executeQuery(sql)) {
      int columns = rows.getMetaData().getColumnCount();
      while (rows.next()) {
        StringBuilder line = new StringBuilder("    ");
        for (int c = 1; c <= columns; c++) {
          line.append(c > 1 ? " | " : "").append(rows.getString(c));
        }
        System.out.println(line);
      }
    }
  }
}
