package io.tenure.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/**
 * Where the server's autovacuum is off (the development machine's CI configuration), runs {@code
 * VACUUM} of the messages table every {@code every} (zero: never), as a brisk autovacuum would.
 */
final class XminVacuumer implements Runnable {
  private final String url;
  private final String table;
  private final Duration every;
  private volatile boolean stopped;
  private volatile Statement running;

  XminVacuumer(String url, String table, Duration every) {
    this.url = url;
    this.table = table;
    this.every = every;
  }

  /** Stops, cancelling a VACUUM under way. */
  void stop() {
    stopped = true;
    Statement statement = running;
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        // it ends with its connection
      }
    }
  }

  @Override
  public void run() {
    if (every.isZero()) {
      return;
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      running = s;
      while (!stopped) {
        Thread.sleep(every);
        long start = System.nanoTime();
        s.execute("VACUUM " + table);
        System.err.printf(
            Locale.ROOT, "  (VACUUM took %.1f s)%n", (System.nanoTime() - start) / 1e9);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SQLException e) {
      if (!stopped) {
        System.err.println("  vacuum stopped: " + e.getMessage());
      }
    }
  }
}
