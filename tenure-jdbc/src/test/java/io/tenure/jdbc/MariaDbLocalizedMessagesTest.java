package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.MarkerChange;
import io.tenure.spi.CreateResult;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MariaDB reports "already there" as error 1062 on the primary key, in the session's language: a
 * German session must still read as a lost race, not as an unexpected constraint violation.
 */
class MariaDbLocalizedMessagesTest {
  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  private HikariDataSource german;

  @AfterEach
  void close() {
    fixture.close();
    if (german != null) {
      german.close();
    }
  }

  @Test
  void a_lost_race_in_a_german_session_is_already_there_not_a_constraint_violation()
      throws SQLException {
    TablePrefix prefix = fixture.freshPrefix();
    german = germanPool();
    try (Store store = JdbcStore.builder().dataSource(german).prefix(prefix).build()) {
      assertDuplicatesAreReportedInGerman(prefix);

      CreateResult first =
          store.markers().createIfAbsent(MarkerChange.of("t", "r", "ARCHIVED", "one"));
      CreateResult second =
          store.markers().createIfAbsent(MarkerChange.of("t", "r", "SOFT_DELETED", "two"));

      assertThat(first.created()).isTrue();
      assertThat(second).isEqualTo(new CreateResult(false, first.marker()));
    }
  }

  private HikariDataSource germanPool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(2);
    config.setConnectionInitSql("SET lc_messages = 'de_DE'");
    return new HikariDataSource(config);
  }

  /** Without German messages on this server the test would prove nothing, so it checks first. */
  private void assertDuplicatesAreReportedInGerman(TablePrefix prefix) throws SQLException {
    String insert =
        "INSERT INTO "
            + prefix.table("markers")
            + " (tenant, resource, state, marked_at) VALUES ('probe', 'p', 'ARCHIVED', UTC_TIMESTAMP(6))";
    try (Connection connection = german.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(insert);
      assertThatThrownBy(() -> statement.execute(insert))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Schlüssel 'PRIMARY'")
          .hasMessageNotContaining("for key");
    }
  }
}
