package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Stores;
import io.tenure.spi.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tenure node} checks every setting before it opens (and so migrates) the store: each bad
 * one exits 2 and leaves no SQLite file, folder or table behind.
 */
// A setting wrongly accepted starts a node that runs until stopped: fail, do not hang the build.
@Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class NodeSettingsTest {
  private static final String POSTGRES =
      System.getenv()
          .getOrDefault(
              "TENURE_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  /** Each a node command's options after --store and --prefix; every one is refused. */
  private static final List<List<String>> BAD =
      List.of(
          List.of("--name", "bad name!"),
          List.of("--name", "-starts-with-a-hyphen"),
          List.of("--name", "n1", "--heartbeat-interval", "0s"),
          List.of("--name", "n1", "--heartbeat-interval", "3s"),
          List.of("--name", "n1", "--self-fence-after", "0ms"),
          List.of("--name", "n1", "--self-fence-after", "5s"),
          List.of("--name", "n1", "--stale-after", "PT0S"),
          List.of("--name", "n1", "--stale-after", "2s"),
          List.of("--name", "n1", "--lease-ttl", "0s"),
          List.of("--name", "n1", "--lease-ttl", "4s"),
          List.of("--name", "n1", "--lease-ttl", "P1000000000D"),
          List.of("--name", "n1", "--renew-interval", "0s"),
          List.of("--name", "n1", "--renew-interval", "3s"),
          List.of("--name", "n1", "--fence-after", "0s"),
          List.of("--name", "n1", "--fence-after", "5s"),
          List.of("--name", "n1", "--acquire-delay", "PT-1S"),
          List.of("--name", "n1", "--capability", "bad capability!"),
          List.of("--name", "n1", "--address", "x".repeat(300)),
          List.of("--name", "n1", "--agents", "Not A Family=3"),
          List.of("--name", "n1", "--http", "70000"),
          List.of("--name", "n1", "--http", "0", "--http-host", "0.0.0.0"),
          List.of("--name", "n1", "--wake-host", "bad host!"),
          List.of("--name", "n1", "--wake-host", "no-such-host.invalid"));

  @TempDir Path directory;

  private final String prefix =
      "ns" + UUID.randomUUID().toString().replace("-", "").substring(0, 8) + "_";

  /** A regression would leave tables on the shared server: drop them (only this test's prefix). */
  @AfterEach
  void dropTables() throws SQLException {
    try (Connection connection = DriverManager.getConnection(POSTGRES);
        Statement statement = connection.createStatement()) {
      for (String table : tables(prefix)) {
        statement.execute("DROP TABLE " + table + " CASCADE");
      }
    } catch (SQLException unreachable) {
      // nothing was created there then
    }
  }

  @Test
  void every_bad_setting_on_a_fresh_sqlite_path_exits_2_and_creates_no_file() {
    for (List<String> bad : BAD) {
      Path folder = directory.resolve("n" + UUID.randomUUID());
      Cli.Result result = node("sqlite:" + folder.resolve("x/node.db"), "tenure_", bad);

      assertThat(result.exitCode()).as(bad + "\n" + result).isEqualTo(ExitCodes.USAGE);
      assertThat(result.errLines())
          .as(bad + "\n" + result)
          .singleElement()
          .asString()
          .startsWith("tenure: ");
      assertThat(folder).as(bad.toString()).doesNotExist();
    }
  }

  @Test
  void every_bad_setting_on_a_fresh_postgres_prefix_exits_2_and_creates_no_table()
      throws SQLException {
    requirePostgres();
    for (List<String> bad : BAD) {
      Cli.Result result = node(POSTGRES, prefix, bad);

      assertThat(result.exitCode()).as(bad + "\n" + result).isEqualTo(ExitCodes.USAGE);
      assertThat(tables(prefix)).as(bad.toString()).isEmpty();
    }
  }

  @Test
  void a_duration_beyond_its_bound_is_named_by_its_option() {
    Path folder = directory.resolve("bound");
    Cli.Result result =
        node(
            "sqlite:" + folder.resolve("node.db"),
            "tenure_",
            List.of("--name", "n1", "--lease-ttl", "P1000000000D"));

    assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.errLines())
        .singleElement()
        .asString()
        .startsWith("tenure: --lease-ttl must be at most 365 days")
        .contains("nothing was written");
    assertThat(folder).doesNotExist();
  }

  @Test
  void the_settings_check_uses_the_statement_timeout_of_the_stores_the_launcher_opens() {
    try (Store store = Stores.open("sqlite:" + directory.resolve("timeout.db"));
        Store check = new SettingsCheckStore()) {
      assertThat(check.describe().statementTimeout())
          .isEqualTo(store.describe().statementTimeout());
    }
  }

  private static Cli.Result node(String url, String prefix, List<String> bad) {
    List<String> args = new ArrayList<>(List.of("node", "--store", url, "--prefix", prefix));
    args.addAll(bad);
    return Cli.run(args.toArray(String[]::new));
  }

  private static List<String> tables(String prefix) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(POSTGRES);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")) {
      while (rows.next()) {
        if (rows.getString(1).startsWith(prefix)) {
          tables.add(rows.getString(1));
        }
      }
    }
    return tables;
  }

  private static void requirePostgres() {
    Reachable.requirePostgres(POSTGRES, "The PostgreSQL node settings test");
  }
}
