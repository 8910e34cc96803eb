package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.StoreUnavailableException;
import io.tenure.Stores;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening stores: URL forms, detection, and the errors a user meets first. */
class JdbcStoreTest {

  @Test
  void a_sqlite_url_opens_through_the_service_loader_and_creates_missing_directories(
      @TempDir Path dir) {
    Path file = dir.resolve("nested/deeper/tenure.db");
    try (Store store = Stores.open("sqlite:" + file)) {
      assertThat(store.describe().provider()).isEqualTo("sqlite");
      assertThat(store.describe().schemaVersion())
          .isEqualTo(io.tenure.jdbc.internal.Migrator.LATEST);
      assertThat(store.describe().database()).startsWith("SQLite 3.");
    }
    assertThat(file).exists();
  }

  @Test
  void a_sqlite_store_runs_in_wal_mode_with_a_busy_timeout(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("wal.db");
    try (Store store = Stores.open("sqlite:" + file);
        var connection = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        var statement = connection.createStatement();
        var rows = statement.executeQuery("PRAGMA journal_mode")) {
      rows.next();
      assertThat(rows.getString(1)).isEqualTo("wal");
    }
  }

  @Test
  void without_migration_a_missing_sqlite_file_is_reported_and_not_created(@TempDir Path dir) {
    Path file = dir.resolve("absent/tenure.db");
    assertThatThrownBy(() -> JdbcStore.builder().url("sqlite:" + file).migrate(false).build())
        .isInstanceOf(io.tenure.SchemaMissingException.class)
        .hasMessageContaining("tenure migrate");
    assertThat(dir.resolve("absent")).doesNotExist();
  }

  @Test
  void a_mysql_url_is_served_by_the_mariadb_driver_and_detected_from_metadata() {
    // A random prefix dropped by the fixture: runs that overlap on the shared database never
    // collide.
    try (JdbcFixture mariadb = JdbcFixture.of(JdbcFixture.Kind.MARIADB)) {
      TablePrefix prefix = mariadb.freshPrefix();
      String mysqlUrl = mariadb.url().replace("jdbc:mariadb:", "jdbc:mysql:");
      try (Store store = JdbcStore.builder().url(mysqlUrl).prefix(prefix).build()) {
        assertThat(store.describe().provider()).isEqualTo("mariadb");
        assertThat(store.describe().location()).startsWith("jdbc:mysql:");
      }
    }
  }

  @Test
  void an_unreachable_server_is_reported_unavailable_quickly_with_the_password_masked() {
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                JdbcStore.builder()
                    .url("jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=s3cret")
                    .connectTimeout(Duration.ofSeconds(1))
                    .build())
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("127.0.0.1:1")
        .satisfies(e -> assertNoMessageInTheChainContains(e, "s3cret"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void a_url_without_a_driver_never_shows_its_password_in_the_message_or_any_cause() {
    for (String url :
        List.of(
            "jdbc:db2://localhost:50000/x?user=u&password=s3cret",
            "jdbc:db2://u:s3cret@localhost:50000/x")) {
      assertThatThrownBy(() -> JdbcStore.open(url))
          .as(url)
          .isInstanceOf(UnsupportedDatabaseException.class)
          .hasMessageContaining("no JDBC driver for jdbc:db2://")
          .hasMessageContaining("***")
          .satisfies(e -> assertNoMessageInTheChainContains(e, "s3cret"));
    }
  }

  /** --verbose prints the whole chain, so every message in it must be free of the secret. */
  private static void assertNoMessageInTheChainContains(Throwable failure, String secret) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as(t.getClass().getName()).doesNotContain(secret);
      for (Throwable suppressed : t.getSuppressed()) {
        assertNoMessageInTheChainContains(suppressed, secret);
      }
    }
  }

  @Test
  void a_sqlite_file_that_cannot_be_created_is_unavailable(@TempDir Path dir) throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
    assertThatThrownBy(() -> Stores.open("sqlite:" + notADirectory.resolve("tenure.db")))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("plain-file");
  }

  @Test
  void an_unknown_url_scheme_is_refused_naming_the_supported_forms() {
    assertThatThrownBy(() -> Stores.open("oracle:thin:@db:1521/x"))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("oracle:thin:@db:1521/x")
        .hasMessageContaining("sqlite:PATH")
        .hasMessageContaining("jdbc:postgresql://");
  }

  @Test
  void in_memory_sqlite_urls_are_refused_naming_the_url_and_what_to_use_instead() {
    for (String url :
        List.of(
            "sqlite::memory:",
            "jdbc:sqlite:",
            "jdbc:sqlite::memory:",
            "sqlite:file::memory:?cache=shared",
            "jdbc:sqlite:file:tenure?mode=memory&cache=shared")) {
      assertThatThrownBy(() -> JdbcStore.builder().url(url))
          .as(url)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + url + "'")
          .hasMessageContaining("memory:NAME")
          .hasMessageContaining("sqlite:tenure.db");
    }
    assertThatThrownBy(() -> Stores.open("sqlite::memory:"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void a_jdbc_url_of_a_database_without_a_driver_is_refused() {
    assertThatThrownBy(() -> JdbcStore.open("jdbc:db2://localhost:50000/x"))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("PostgreSQL");
  }

  @Test
  void a_reachable_but_unsupported_database_is_refused_by_its_metadata() {
    assertThatThrownBy(() -> JdbcStore.open("jdbc:h2:mem:tenure-refused"))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("H2");
  }

  @Test
  void builder_arguments_are_checked_at_once() {
    assertThatThrownBy(() -> JdbcStore.builder().url("sqlite:"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file path");
    assertThatThrownBy(() -> JdbcStore.builder().url(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JdbcStore.builder().poolSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
    assertThatThrownBy(() -> JdbcStore.builder().connectTimeout(Duration.ofMillis(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT0.01S");
    assertThatThrownBy(() -> JdbcStore.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exactly one");
    assertThatThrownBy(
            () -> Stores.open(new StoreSettings("sqlite:x.db", TablePrefix.of("Bad"), true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Bad'");
  }

  @Test
  void secrets_are_masked_in_urls() {
    assertThat(Stores.maskSecrets("jdbc:postgresql://h/db?user=u&password=p4ss&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
    assertThat(Stores.maskSecrets("jdbc:mariadb://u:p4ss@h/db"))
        .isEqualTo("jdbc:mariadb://u:***@h/db");
  }
}
