package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.ContentionException;
import io.tenure.StoreException;
import io.tenure.StoreUnavailableException;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Once the database is detected, failures while opening go through the dialect's classifier like
 * every other operation's: only an unreachable store is "unavailable".
 */
class OpeningErrorClassificationTest {
  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void a_user_who_may_not_create_tables_gets_a_store_error_not_unavailable() throws SQLException {
    String role =
        "tenure_nocreate_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    // Since PostgreSQL 15 only the database owner may create in schema public.
    execute("CREATE ROLE " + role + " LOGIN");
    try {
      String asRole = fixture.url().replace("user=postgres", "user=" + role);

      assertThatThrownBy(
              () -> JdbcStore.builder().url(asRole).prefix(fixture.freshPrefix()).build())
          .isInstanceOf(StoreException.class)
          .isNotInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("migrate the schema")
          .hasMessageContaining("permission denied");
    } finally {
      execute("DROP ROLE " + role);
    }
  }

  @Test
  void a_migration_lock_not_granted_in_time_is_contention() throws SQLException {
    TablePrefix prefix = fixture.freshPrefix();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(1);
    // The lock is held for the whole test: the timeout bounds the wait, it does not race anything.
    config.setConnectionInitSql("SET lock_timeout = '200ms'");
    try (Connection holder = DriverManager.getConnection(fixture.url());
        HikariDataSource impatient = new HikariDataSource(config)) {
      holdMigrationLock(holder, prefix);

      assertThatThrownBy(() -> JdbcStore.builder().dataSource(impatient).prefix(prefix).build())
          .isInstanceOf(ContentionException.class)
          .hasMessageContaining("migrate the schema of prefix '" + prefix + "'");
    }
  }

  private static void holdMigrationLock(Connection holder, TablePrefix prefix) throws SQLException {
    try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_lock(?)")) {
      lock.setLong(1, DefaultDialect.lockKey("tenure:migrate:" + prefix.value()));
      lock.execute();
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(fixture.url());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
