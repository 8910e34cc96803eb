package io.tenure.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;

/** A test's database: skipped loudly when unreachable locally, a failure when {@code CI=true}. */
final class Reachable {
  private Reachable() {}

  /**
   * @param url the server's JDBC URL
   * @param what the tests that are skipped, for the message ("the demo test")
   */
  static void requirePostgres(String url, String what) {
    try (Connection connection = DriverManager.getConnection(url)) {
      return;
    } catch (SQLException e) {
      String message = "!!! PostgreSQL is not reachable at " + url + " (" + e.getMessage() + ").";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(message + " CI=true: an unreachable provider fails the build.");
      }
      System.err.println(message + " " + what + " is SKIPPED; CI would fail.");
      Assumptions.abort(message);
    }
  }
}
