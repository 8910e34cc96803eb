package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store's own pools hand out connections at READ COMMITTED, so its write transactions skip
 * reading, setting and restoring the isolation (three round trips of a claim's five). If the pool
 * stopped setting it, MariaDB's transactions would silently run at its default, REPEATABLE READ,
 * with gap locks; this test is what notices.
 */
class OwnPoolIsolationTest {
  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"POSTGRES", "MARIADB"})
  void every_connection_of_a_stores_own_pool_is_at_read_committed(JdbcFixture.Kind kind)
      throws SQLException {
    fixture = JdbcFixture.of(kind);
    PoolOpener opener = new PoolOpener(fixture.url(), null, null, true, Duration.ofSeconds(5));
    try (HikariDataSource pool = opener.open("isolation-test", 2, Duration.ofSeconds(5));
        Connection first = pool.getConnection();
        Connection second = pool.getConnection()) {
      assertThat(first.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      assertThat(second.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    }
  }
}
