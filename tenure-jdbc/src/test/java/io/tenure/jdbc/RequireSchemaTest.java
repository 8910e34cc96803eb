package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.SchemaMissingException;
import io.tenure.Stores;
import io.tenure.jdbc.internal.Migrator;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An open that requires the schema (what the operator commands use) looks and never creates: no
 * table on a server, no file or folder on SQLite, nothing in a default database.
 */
class RequireSchemaTest {
  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_missing_prefix_is_refused_naming_it_and_no_table_is_created(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    TablePrefix other = fixture.freshPrefix();
    fixture
        .open(other)
        .close(); // the database (on SQLite: the file) exists; only the prefix is new
    TablePrefix missing = fixture.freshPrefix();

    assertThatThrownBy(() -> Stores.open(StoreSettings.existing(fixture.url(), missing)))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("no Tenure tables with prefix '" + missing + "'")
        .hasMessageContaining(kind == JdbcFixture.Kind.SQLITE ? fixture.url() : "database 'test'")
        .hasMessageContaining("tenure migrate");
    // Other runs share the server's database, so only this prefix can be watched: a migration
    // would have created its tables, the version table first.
    assertThat(fixture.tables(missing)).isEmpty();
    assertThat(fixture.tables(other)).isNotEmpty();
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void an_older_schema_is_refused_and_left_as_it_is(JdbcFixture.Kind kind) throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    fixture.open(prefix).close();
    int older = Migrator.LATEST - 1;
    execute("DELETE FROM " + prefix.table("schema_version") + " WHERE version > " + older);

    assertThatThrownBy(() -> Stores.open(StoreSettings.existing(fixture.url(), prefix)))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("at v" + older + " but this Tenure needs v" + Migrator.LATEST);
    assertThat(maxVersion(prefix)).isEqualTo(older);
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_current_schema_opens_for_reads_and_writes(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    fixture.open(prefix).close();

    try (Store store = Stores.open(StoreSettings.existing(fixture.url(), prefix))) {
      assertThat(store.describe().schemaVersion()).isEqualTo(Migrator.LATEST);
      store.events().append(io.tenure.ClusterEvent.Kind.JOINED, "n1", null, "name n1");
      assertThat(store.events().recent(1)).hasSize(1);
    }
  }

  @Test
  void a_missing_sqlite_file_and_its_folders_are_not_created(@TempDir Path dir) {
    Path file = dir.resolve("nonexistent-dir/x/y.db");

    assertThatThrownBy(
            () -> Stores.open(StoreSettings.existing("sqlite:" + file, TablePrefix.DEFAULT)))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("no Tenure database at " + file.toAbsolutePath());
    assertThat(dir.resolve("nonexistent-dir")).doesNotExist();
  }

  @Test
  void an_existing_sqlite_file_without_tenure_tables_is_refused_and_left_without_tables(
      @TempDir Path dir) throws SQLException {
    Path file = dir.resolve("other.db");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE someone_elses (x INTEGER)");
    }

    assertThatThrownBy(
            () -> Stores.open(StoreSettings.existing("sqlite:" + file, TablePrefix.DEFAULT)))
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining("no Tenure tables with prefix 'tenure_'");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")) {
      rows.next();
      assertThat(rows.getString(1)).isEqualTo("someone_elses");
    }
  }

  @Test
  void a_missing_postgres_database_is_reported_as_missing_not_unavailable_and_not_created()
      throws SQLException {
    fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
    String name = "tenure_absent_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String url = fixture.url().replace("/test?", "/" + name + "?");

    // A short connect timeout: the pool retries its first connection that long whatever the error.
    for (boolean migrate : new boolean[] {false, true}) {
      assertThatThrownBy(
              () ->
                  JdbcStore.builder()
                      .url(url)
                      .migrate(migrate)
                      .requireSchema(!migrate)
                      .connectTimeout(Duration.ofMillis(250))
                      .build())
          .isInstanceOf(SchemaMissingException.class)
          .hasMessageContaining(name)
          .hasMessageContaining("CREATE DATABASE");
    }
    try (Connection connection = DriverManager.getConnection(fixture.url());
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT count(*) FROM pg_database WHERE datname = '" + name + "'")) {
      rows.next();
      assertThat(rows.getInt(1)).isZero();
    }
  }

  @Test
  void a_missing_mariadb_database_is_reported_as_missing_not_unavailable() {
    fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);
    String name = "tenure_absent_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String url = fixture.url().replace("/test?", "/" + name + "?");

    assertThatThrownBy(
            () ->
                JdbcStore.builder()
                    .url(url)
                    .migrate(false)
                    .requireSchema(true)
                    .connectTimeout(Duration.ofMillis(250))
                    .build())
        .isInstanceOf(SchemaMissingException.class)
        .hasMessageContaining(name)
        .hasMessageContaining("CREATE DATABASE");
  }

  @Test
  void a_server_url_without_a_database_is_refused_before_connecting() {
    for (String url :
        List.of(
            "jdbc:postgresql:",
            "jdbc:postgresql:/",
            "jdbc:postgresql://127.0.0.1:5432/",
            "jdbc:postgresql://127.0.0.1:5432",
            "jdbc:postgresql://127.0.0.1/?user=postgres&password=s3cret",
            "jdbc:mariadb://127.0.0.1:3306/",
            "jdbc:mysql://127.0.0.1:3306?user=root",
            "jdbc:mariadb:sequential://h1,h2/")) {
      for (StoreSettings settings :
          List.of(
              StoreSettings.existing(url, TablePrefix.DEFAULT),
              new StoreSettings(url, TablePrefix.DEFAULT, true))) {
        assertThatThrownBy(() -> Stores.open(settings))
            .as(url)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("names no database")
            .hasMessageNotContaining("s3cret");
      }
    }
  }

  @Test
  void the_database_name_is_read_from_every_url_form() {
    assertThat(StoreUrls.databaseName("//127.0.0.1:5432/test?user=postgres")).isEqualTo("test");
    assertThat(StoreUrls.databaseName("//h1:5432,h2:5433/app")).isEqualTo("app");
    assertThat(StoreUrls.databaseName("app")).isEqualTo("app");
    assertThat(StoreUrls.databaseName("/app?ssl=true")).isEqualTo("app");
    assertThat(StoreUrls.databaseName("sequential://h1,h2/app")).isEqualTo("app");
    assertThat(StoreUrls.databaseName("//address=(host=h)(port=3306)/app")).isEqualTo("app");
    assertThat(StoreUrls.databaseName("")).isEmpty();
    assertThat(StoreUrls.databaseName("//h/")).isEmpty();
    assertThat(StoreUrls.databaseName("?user=x")).isEmpty();
  }

  @Test
  void require_schema_and_migrate_together_are_refused() {
    assertThatThrownBy(() -> new StoreSettings("sqlite:x.db", TablePrefix.DEFAULT, true, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requireSchema");
    assertThatThrownBy(() -> JdbcStore.builder().url("sqlite:x.db").requireSchema(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("turn migrate off");
    assertThat(Path.of("x.db")).doesNotExist();
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(fixture.url()));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private int maxVersion(TablePrefix prefix) throws SQLException {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(fixture.url()));
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT MAX(version) FROM " + prefix.table("schema_version"))) {
      rows.next();
      return rows.getInt(1);
    }
  }
}
