package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.StoreException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * SQLite's {@code BEGIN IMMEDIATE} is invisible to JDBC (auto-commit stays on), so a pool never
 * rolls it back. When Tenure's own ROLLBACK fails, the connection must be closed, not pooled: an
 * idle pooled connection would keep the database's write lock and block every writer for good.
 */
class FailedRollbackTest {

  @Test
  void a_connection_whose_rollback_failed_is_evicted_from_a_hikari_pool_and_the_write_lock_freed(
      @TempDir Path dir) throws SQLException {
    String url = "jdbc:sqlite:" + dir.resolve("rollback.db");
    HikariConfig config = new HikariConfig();
    config.setDataSource(rollbackFails(url));
    config.setMaximumPoolSize(1);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      failAWriteWhoseRollbackFails(pool);

      assertTheWriteLockIsFree(url);
      Jdbc next = new Jdbc(pool, new SqliteDialect(), "test", () -> false);
      boolean valid = next.write("the next write", connection -> connection.isValid(1));
      assertThat(valid).isTrue();
    }
  }

  @Test
  void a_connection_whose_rollback_failed_is_closed_in_any_pool(@TempDir Path dir)
      throws SQLException {
    String url = "jdbc:sqlite:" + dir.resolve("rollback.db");
    try (Connection physical = rollbackFails(url).getConnection()) {
      failAWriteWhoseRollbackFails(keepingConnectionsOpen(physical));

      assertTheWriteLockIsFree(url);
      assertThat(physical.isClosed()).isTrue();
    }
  }

  private static void failAWriteWhoseRollbackFails(DataSource source) {
    Jdbc jdbc = new Jdbc(source, new SqliteDialect(), "test", () -> false);
    assertThatThrownBy(
            () ->
                jdbc.write(
                    "a failing write",
                    connection -> {
                      throw new SQLException("the work failed");
                    }))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("the work failed")
        .satisfies(
            e ->
                assertThat(e.getCause().getSuppressed())
                    .extracting(Throwable::getMessage)
                    .contains("ROLLBACK failed"));
  }

  private static void assertTheWriteLockIsFree(String url) throws SQLException {
    try (Connection other = DriverManager.getConnection(url);
        Statement statement = other.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 0");
      statement.execute("BEGIN IMMEDIATE");
      statement.execute("ROLLBACK");
    }
  }

  /**
   * The simplest pool that is not Hikari: one physical connection, handed out again and again;
   * closing what it hands out returns it, and only unwrapping reaches the physical connection.
   */
  private static DataSource keepingConnectionsOpen(Connection physical) {
    Connection pooled =
        (Connection)
            Proxy.newProxyInstance(
                FailedRollbackTest.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (p, method, args) ->
                    switch (method.getName()) {
                      case "close" -> null;
                      case "unwrap" -> physical;
                      default -> invoke(method, physical, args);
                    });
    return (DataSource)
        Proxy.newProxyInstance(
            FailedRollbackTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (p, method, args) -> {
              if (!method.getName().equals("getConnection")) {
                throw new UnsupportedOperationException(method.getName());
              }
              return pooled;
            });
  }

  /** A SQLite data source whose connections run everything except ROLLBACK. */
  private static DataSource rollbackFails(String url) {
    SQLiteDataSource real = new SQLiteDataSource();
    real.setUrl(url);
    return proxy(
        DataSource.class,
        real,
        (method, result) ->
            method.getName().equals("getConnection")
                ? failingRollback((Connection) result)
                : result);
  }

  private static Connection failingRollback(Connection real) {
    return proxy(
        Connection.class,
        real,
        (method, result) ->
            method.getName().equals("createStatement")
                ? statementFailingRollback((Statement) result)
                : result);
  }

  private static Statement statementFailingRollback(Statement real) {
    return (Statement)
        Proxy.newProxyInstance(
            FailedRollbackTest.class.getClassLoader(),
            new Class<?>[] {Statement.class},
            (p, method, args) -> {
              if (method.getName().equals("execute") && "ROLLBACK".equals(args[0])) {
                throw new SQLException("ROLLBACK failed");
              }
              return invoke(method, real, args);
            });
  }

  private interface Decorator {
    Object apply(Method method, Object result);
  }

  private static <T> T proxy(Class<T> type, T real, Decorator decorator) {
    return type.cast(
        Proxy.newProxyInstance(
            FailedRollbackTest.class.getClassLoader(),
            new Class<?>[] {type},
            (p, method, args) -> decorator.apply(method, invoke(method, real, args))));
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
