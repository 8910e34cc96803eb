package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.server.Json;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tenure demo --duration}: three real node processes, a workload, a drain and the summary,
 * on SQLite and PostgreSQL. The summary is checked against itself: every message sent is handled,
 * dead (the flaky ones) or reported lost or stranded, and none is lost or stranded.
 */
class DemoCommandTest {
  private static final String POSTGRES =
      System.getenv()
          .getOrDefault(
              "TENURE_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  @TempDir Path folder;

  @Test
  void an_unattended_demo_on_sqlite_loses_and_strands_nothing() {
    Cli.Result result =
        Cli.run(
            "demo",
            "--dir",
            folder.toString(),
            "--duration",
            "8s",
            "--rate",
            "50",
            "--no-browser",
            "--http",
            "0");
    checkSummary(result);
    // Not the default folder: the commands to inspect it name the file.
    assertThat(result.err())
        .contains(
            "demo: inspect it from another shell: tenure nodes --store sqlite:"
                + folder.toAbsolutePath().resolve("tenure.db")
                + ", tenure agents --store sqlite:");
  }

  @Test
  void a_store_in_the_demo_folder_that_a_demo_did_not_make_is_refused_and_kept() throws Exception {
    Path file = folder.resolve("tenure.db");
    io.tenure.Stores.open("sqlite:" + file).close();
    long size = java.nio.file.Files.size(file);

    Cli.Result result =
        Cli.run(
            "demo", "--dir", folder.toString(), "--duration", "5s", "--no-browser", "--http", "0");

    assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.CONFLICT);
    assertThat(result.errLines())
        .as(result.toString())
        .singleElement()
        .asString()
        .contains("did not make");
    assertThat(java.nio.file.Files.size(file)).isEqualTo(size);
  }

  @Test
  void an_unattended_demo_on_postgresql_loses_and_strands_nothing() throws SQLException {
    requirePostgres();
    String prefix =
        "demo" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 8) + "_";
    try {
      Cli.Result result =
          Cli.run(
              "demo",
              "--store",
              POSTGRES,
              "--prefix",
              prefix,
              "--dir",
              folder.toString(),
              "--duration",
              "8s",
              "--rate",
              "50",
              "--no-browser",
              "--http",
              "0");
      checkSummary(result);
      assertThat(result.err())
          .contains("tenure nodes --store '" + POSTGRES + "' --prefix " + prefix);
    } finally {
      dropTables(prefix);
    }
  }

  private static void dropTables(String prefix) throws SQLException {
    try (Connection connection = DriverManager.getConnection(POSTGRES);
        java.sql.Statement statement = connection.createStatement()) {
      java.util.List<String> tables = new java.util.ArrayList<>();
      try (java.sql.ResultSet rows =
          connection.getMetaData().getTables(null, null, null, new String[] {"TABLE"})) {
        while (rows.next()) {
          if (rows.getString("TABLE_NAME").startsWith(prefix)) {
            tables.add(rows.getString("TABLE_NAME"));
          }
        }
      }
      for (String table : tables) {
        statement.execute("DROP TABLE IF EXISTS " + table + " CASCADE");
      }
    }
  }

  private static void checkSummary(Cli.Result result) {
    assertThat(result.exitCode()).as(result.toString()).isZero();
    List<String> lines = result.out().lines().filter(l -> !l.isBlank()).toList();
    assertThat(lines).as("stdout is only the summary").hasSize(1);
    Map<String, Object> summary = Json.parseObject(lines.get(0));
    long enqueued = (Long) summary.get("enqueued");
    assertThat(enqueued).isGreaterThan(100);
    assertThat(summary.get("lost")).isEqualTo(0L);
    assertThat(summary.get("stranded")).isEqualTo(0L);
    assertThat(summary.get("duplicates")).isEqualTo(0L);
    assertThat((Long) summary.get("handled") + (Long) summary.get("dead")).isEqualTo(enqueued);
    // Every 25th message is flaky and dead at once; the rest are handled.
    assertThat((Long) summary.get("dead")).isEqualTo(enqueued / 25);
    assertThat(result.err()).contains("demo: console: http://127.0.0.1:");
  }

  @Test
  void bad_options_are_refused_before_anything_starts() {
    for (String[] bad :
        new String[][] {
          {"--nodes", "0"},
          {"--nodes", "10"},
          {"--rate", "0"},
          {"--duration", "0s"},
          {"--http", "70000"}
        }) {
      String[] args = new String[bad.length + 4];
      args[0] = "demo";
      args[1] = "--dir";
      args[2] = folder.resolve("never").toString();
      args[3] = "--no-browser";
      System.arraycopy(bad, 0, args, 4, bad.length);
      Cli.Result result = Cli.run(args);
      assertThat(result.exitCode()).as(String.join(" ", bad)).isEqualTo(ExitCodes.USAGE);
      assertThat(result.errLines()).as(result.toString()).hasSize(1);
      assertThat(folder.resolve("never")).doesNotExist();
    }
  }

  @Test
  void an_unreachable_store_is_a_one_line_error() {
    Cli.Result result =
        Cli.run(
            "demo",
            "--store",
            "jdbc:postgresql://127.0.0.1:1/none?user=x&connectTimeout=2",
            "--dir",
            folder.toString(),
            "--no-browser",
            "--duration",
            "5s");
    assertThat(result.exitCode()).as(result.toString()).isNotZero();
    assertThat(result.errLines()).as(result.toString()).hasSize(1);
  }

  private static void requirePostgres() {
    Reachable.requirePostgres(POSTGRES, "The PostgreSQL demo test");
  }
}
