package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite through a caller's data source: Tenure's own pool configures WAL and the busy timeout when
 * it opens connections, a caller's pool does not, so the store applies both itself.
 */
class SqliteSessionTest {

  @Test
  void every_borrowed_connection_waits_for_the_write_lock_and_gets_the_callers_timeout_back(
      @TempDir Path dir) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("busy.db"));
    config.setMaximumPoolSize(1);
    config.setConnectionInitSql("PRAGMA busy_timeout = 250");
    try (HikariDataSource callerPool = new HikariDataSource(config)) {
      Jdbc jdbc = new Jdbc(callerPool, new SqliteDialect(), "test", () -> false);

      long duringRead = jdbc.read("read busy timeout", SqliteSessionTest::busyTimeout);
      long duringWrite = jdbc.write("read busy timeout", SqliteSessionTest::busyTimeout);

      assertThat(duringRead).isEqualTo(SqliteDialect.BUSY_TIMEOUT.toMillis());
      assertThat(duringWrite).isEqualTo(SqliteDialect.BUSY_TIMEOUT.toMillis());
      try (Connection returned = callerPool.getConnection()) {
        assertThat(busyTimeout(returned)).isEqualTo(250);
      }
    }
  }

  @Test
  void a_longer_busy_timeout_of_the_caller_is_kept(@TempDir Path dir) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("patient.db"));
    config.setMaximumPoolSize(1);
    config.setConnectionInitSql("PRAGMA busy_timeout = 60000");
    try (HikariDataSource callerPool = new HikariDataSource(config)) {
      Jdbc jdbc = new Jdbc(callerPool, new SqliteDialect(), "test", () -> false);

      assertThat(jdbc.read("read busy timeout", SqliteSessionTest::busyTimeout)).isEqualTo(60000);
    }
  }

  @Test
  void a_store_over_a_callers_data_source_switches_the_database_to_wal(@TempDir Path dir)
      throws SQLException {
    String url = "jdbc:sqlite:" + dir.resolve("wal.db");
    SQLiteDataSource callers = new SQLiteDataSource();
    callers.setUrl(url);
    assertThat(journalMode(url)).isEqualTo("delete");

    try (Store store = JdbcStore.builder().dataSource(callers).build()) {
      assertThat(journalMode(url)).isEqualTo("wal");
    }
  }

  private static long busyTimeout(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA busy_timeout")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static String journalMode(String url) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA journal_mode")) {
      rows.next();
      return rows.getString(1);
    }
  }
}
