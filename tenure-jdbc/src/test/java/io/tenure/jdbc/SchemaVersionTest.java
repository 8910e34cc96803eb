package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.SchemaMissingException;
import io.tenure.StoreException;
import io.tenure.jdbc.internal.Migrator;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store opens only on the schema version it was built for: a newer schema is refused (upgrade
 * Tenure), an older one is migrated, or refused when migration is off.
 */
class SchemaVersionTest {
  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_schema_newer_than_this_tenure_is_refused_with_or_without_migration(JdbcFixture.Kind kind)
      throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    fixture.open(prefix).close();
    int newer = Migrator.LATEST + 1;
    execute(
        "INSERT INTO "
            + prefix.table("schema_version")
            + " (version, description, applied_at)"
            + " VALUES ("
            + newer
            + ", 'V"
            + newer
            + "__future.sql', '2030-01-01T00:00:00Z')");

    for (boolean migrate : new boolean[] {true, false}) {
      assertThatThrownBy(
              () -> JdbcStore.builder().url(fixture.url()).prefix(prefix).migrate(migrate).build())
          .as("migrate " + migrate)
          .isExactlyInstanceOf(StoreException.class)
          .hasMessageContaining(
              "this Tenure knows schema v" + Migrator.LATEST + ", the database has v" + newer)
          .hasMessageContaining("upgrade Tenure");
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void an_older_schema_is_refused_when_migration_is_off(JdbcFixture.Kind kind) throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    fixture.open(prefix).close();
    int older = Migrator.LATEST - 1;
    execute("DELETE FROM " + prefix.table("schema_version") + " WHERE version > " + older);

    assertThatThrownBy(() -> fixture.openWithoutMigration(prefix))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("at v" + older + " but this Tenure needs v" + Migrator.LATEST)
        .hasMessageContaining("tenure migrate");
    try (Store current = fixture.openWithoutMigration(fixture.freshPrefix())) {
      assertThat(current.describe().schemaVersion())
          .as("never migrated: reported on first use")
          .isZero();
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(fixture.url()));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
