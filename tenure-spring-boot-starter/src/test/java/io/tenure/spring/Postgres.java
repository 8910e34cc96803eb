package io.tenure.spring;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the tests share (the {@code test} database), as tenure-jdbc's fixture uses
 * it: each test class takes a fresh table prefix and drops its tables after. An unreachable server
 * skips the tests with a loud message locally and fails them when {@code CI=true}.
 */
final class Postgres {
  /** The server, overridable with TENURE_TEST_POSTGRES_URL as for tenure-jdbc's tests. */
  static final String URL =
      System.getenv()
          .getOrDefault(
              "TENURE_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private Postgres() {}

  /** Skips (locally) or fails (CI) unless the server answers. */
  static void requireReachable() {
    try (Connection ignored = DriverManager.getConnection(URL)) {
      // reachable
    } catch (SQLException e) {
      String message = "!!! postgresql is not reachable at " + URL + " (" + e.getMessage() + ").";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(message + " CI=true: an unreachable provider fails the build.", e);
      }
      System.err.println(message + " Its tests are SKIPPED; CI would fail.");
      Assumptions.abort(message);
    }
  }

  /**
   * @return a table prefix no other run uses
   */
  static String freshPrefix() {
    return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10) + "_";
  }

  static HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setMaximumPoolSize(6);
    return new HikariDataSource(config);
  }

  /** Drops every table whose name starts with {@code prefix}. */
  static void dropTables(String prefix) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery(
              // pg_tables: information_schema.tables takes 20x as long.
              "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")) {
        while (rows.next()) {
          if (rows.getString(1).startsWith(prefix)) {
            tables.add(rows.getString(1));
          }
        }
      }
      if (!tables.isEmpty()) {
        // One statement, one commit, not one per table.
        statement.execute("DROP TABLE IF EXISTS " + String.join(", ", tables) + " CASCADE");
      }
    }
  }
}
