package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.jdbc.JdbcFixture;
import io.tenure.spi.TablePrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's migration lock is a session lock released by hand; a failed release must not hide why.
 */
class MariaDbMigrationLockTest {
  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void a_failed_release_is_attached_to_the_migration_failure_not_put_in_its_place()
      throws SQLException {
    TablePrefix prefix = fixture.freshPrefix();
    try (Connection real = DriverManager.getConnection(fixture.url())) {
      Connection releaseFails = failingRelease(real);

      assertThatThrownBy(
              () ->
                  new MariaDbDialect("mariadb")
                      .withMigrationLock(
                          releaseFails,
                          prefix,
                          () -> {
                            throw new SQLException("migration V2 failed");
                          }))
          .isInstanceOf(SQLException.class)
          .hasMessage("migration V2 failed")
          .satisfies(
              e ->
                  assertThat(e.getSuppressed())
                      .extracting(Throwable::getMessage)
                      .containsExactly("RELEASE_LOCK failed"));
    }
  }

  /** The real connection, except that preparing RELEASE_LOCK fails. */
  private static Connection failingRelease(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            MariaDbMigrationLockTest.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("prepareStatement")
                  && ((String) args[0]).contains("RELEASE_LOCK")) {
                throw new SQLException("RELEASE_LOCK failed");
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
