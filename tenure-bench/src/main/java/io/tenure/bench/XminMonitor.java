package io.tenure.bench;

import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the xmin benchmark reads besides its own counts: the machine's load and PostgreSQL's views.
 */
final class XminMonitor {
  private XminMonitor() {}

  /** The table's state from the statistics views, read at a window's end. */
  record TableState(long deadTuples, long tableBytes, long claimIndexBytes, String vacuum) {}

  /** The machine's 1-minute load average, which tells whether other jobs ran beside the run. */
  static String loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
    } catch (java.io.IOException | RuntimeException e) {
      return "?";
    }
  }

  /** The database's busy sessions, for a window in which nothing completed. */
  static String activity(Connection monitor) throws SQLException {
    StringBuilder out = new StringBuilder("    nothing completed; busy sessions:\n");
    try (Statement s = monitor.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT state, wait_event_type, wait_event, now() - xact_start,"
                    + " left(regexp_replace(query, '\\s+', ' ', 'g'), 100)"
                    + " FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND pid <> pg_backend_pid() AND state <> 'idle'")) {
      while (r.next()) {
        out.append("    ")
            .append(r.getString(1))
            .append(" | ")
            .append(r.getString(2))
            .append(' ')
            .append(r.getString(3))
            .append(" | ")
            .append(r.getString(4))
            .append(" | ")
            .append(r.getString(5))
            .append('\n');
      }
    }
    return out.toString();
  }

  static TableState tableState(Connection monitor, TablePrefix prefix, String table)
      throws SQLException {
    try (PreparedStatement s =
        monitor.prepareStatement(
            "SELECT t.n_dead_tup, pg_total_relation_size(t.relid),"
                + " pg_relation_size(to_regclass(?)), t.autovacuum_count + t.vacuum_count,"
                + " p.phase, round(100.0 * p.heap_blks_scanned / nullif(p.heap_blks_total, 0))"
                + " FROM pg_stat_user_tables t"
                + " LEFT JOIN pg_stat_progress_vacuum p ON p.relid = t.relid"
                + " WHERE t.relname = ?")) {
      s.setString(1, prefix.table("messages_claim"));
      s.setString(2, table);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return new TableState(-1, -1, -1, "?");
        }
        String running = r.getString(5);
        String vacuum =
            r.getLong(4)
                + " done"
                + (running == null ? "" : ", running: " + running + " " + r.getString(6) + " %");
        return new TableState(r.getLong(1), r.getLong(2), r.getLong(3), vacuum);
      }
    }
  }
}
