package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.QUEUE;

import io.tenure.jdbc.JdbcStore;
import io.tenure.jdbc.QueueStatements;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** The held-xmin run's plans: the store's claim, and the same claim told where to start. */
final class XminPlans {
  private XminPlans() {}

  /**
   * Late in the hold: the store's claim, then the same claim told where the queue's first pending
   * row is (a low-water mark the store does not keep): once as a condition on the index entries,
   * once as a seek (the one priority this run uses). What a claim that need not walk the dead
   * entries from the head would cost.
   */
  static List<String> held(JdbcStore store, String url, String table) throws SQLException {
    List<String> plans = new ArrayList<>();
    plans.add(claim(store, url, "end of the hold", "", true));
    long start = System.nanoTime();
    long floor;
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT min(id) FROM "
                    + table
                    + " WHERE queue = '"
                    + QUEUE
                    + "'"
                    + " AND status = 'PENDING'")) {
      r.next();
      floor = r.getLong(1);
    }
    String found =
        String.format(
            Locale.ROOT,
            "the first pending id (%,d) found by min(id) in %,.1f ms",
            floor,
            (System.nanoTime() - start) / 1e6);
    plans.add(
        claim(
            store,
            url,
            "end of the hold, with w.id >= the first pending id (" + found + ")",
            "w.id >= " + floor + " AND ",
            false));
    plans.add(
        claim(
            store,
            url,
            "end of the hold, with w.priority = 0 AND w.id >= the first pending id",
            "w.priority = 0 AND w.id >= " + floor + " AND ",
            false));
    return plans;
  }

  /**
   * EXPLAIN (ANALYZE, BUFFERS) of the store's own claim for 16 rows (the consumer's concurrency
   * here asks at most that many) in a transaction rolled back: it locks a few live rows for a
   * moment, which the consumer skips, and claims nothing. {@code walkCondition} is put first in the
   * walk's WHERE; {@code full} prints the whole plan, else the walk and the totals.
   */
  static String claim(JdbcStore store, String url, String when, String walkCondition, boolean full)
      throws SQLException {
    QueueStatements.Statement claim = QueueStatements.of(store).claim();
    Map<String, Object> values =
        QueueStatements.claimValues(
            QUEUE, 16, "explain", UUID.randomUUID().toString(), Duration.ofSeconds(30));
    String text = claim.jdbcText(values);
    if (!walkCondition.isEmpty()) {
      String walk = "WHERE w.queue = ";
      if (!text.contains(walk)) {
        throw new IllegalStateException("the claim no longer has '" + walk + "'");
      }
      int at = text.indexOf(walk);
      text =
          text.substring(0, at) + "WHERE " + walkCondition + text.substring(at + "WHERE ".length());
    }
    StringBuilder plan =
        new StringBuilder("EXPLAIN (ANALYZE, BUFFERS) of the claim (max 16), " + when + ":\n");
    try (Connection c = DriverManager.getConnection(url)) {
      c.setAutoCommit(false);
      try (PreparedStatement s = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + text)) {
        claim.bind(s, values);
        boolean inWalk = false;
        try (ResultSet rows = s.executeQuery()) {
          while (rows.next()) {
            String line = rows.getString(1);
            if (line.contains("CTE walked")) {
              inWalk = true;
            } else if (line.contains("CTE heads")) {
              inWalk = false;
            }
            if (full
                || inWalk
                || line.startsWith("Update on")
                || line.startsWith("Execution Time")
                || line.startsWith("Planning Time")) {
              plan.append("    ").append(line).append('\n');
            }
          }
        }
      } finally {
        c.rollback();
      }
    }
    return plan.toString();
  }
}
