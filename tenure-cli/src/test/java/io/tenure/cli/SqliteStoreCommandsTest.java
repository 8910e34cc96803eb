package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands on a SQLite file of their own, with the default prefix. */
class SqliteStoreCommandsTest extends StoreCommandsContract {
  @TempDir Path directory;

  @Override
  String url() {
    return "sqlite:" + directory.resolve("t.db");
  }

  @Override
  String prefix() {
    return "tenure_";
  }

  @Override
  String provider() {
    return "sqlite";
  }

  @Override
  List<String> tables(String prefix) {
    Path file = directory.resolve("t.db");
    if (!Files.exists(file)) {
      return List.of();
    }
    return query(file, "SELECT name FROM sqlite_master WHERE type = 'table'").stream()
        .filter(name -> name.startsWith(prefix))
        .toList();
  }

  @Override
  void downgradeSchema(String prefix) {
    query(
        directory.resolve("t.db"),
        "DELETE FROM "
            + prefix
            + "schema_version WHERE version = (SELECT MAX(version) FROM "
            + prefix
            + "schema_version) RETURNING version");
  }

  @Test
  void a_read_command_on_a_missing_file_in_missing_folders_exits_8_and_creates_neither() {
    Path file = directory.resolve("nonexistent-dir/x/y.db");

    Cli.Result status = Cli.run("status", "--store", "sqlite:" + file);

    assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.NO_SCHEMA);
    assertThat(status.errLines())
        .singleElement()
        .asString()
        .isEqualTo(
            "tenure: no Tenure database at "
                + file
                + "; run tenure migrate --store sqlite:"
                + file);
    assertThat(directory.resolve("nonexistent-dir")).doesNotExist();
  }

  @Test
  void without_store_or_environment_the_default_file_is_named_with_the_demo_that_makes_it() {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Files.exists(Path.of("tenure-data")), "a tenure-data folder in the module folder");
    Cli.Result status =
        Cli.run(
            java.util.Map.of(TenureCommand.LAUNCHER_VARIABLE, "./tenure"),
            "nodes",
            "--prefix",
            "tenure_");

    // Run from the module folder: the default file is not there (nor made by this run).
    assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.NO_SCHEMA);
    assertThat(status.err().strip())
        .startsWith(
            "tenure: no Tenure database at " + Path.of("tenure-data/tenure.db").toAbsolutePath())
        .endsWith("; run ./tenure migrate, or ./tenure demo for a demo cluster on it");
    assertThat(Path.of("tenure-data")).doesNotExist();
  }

  private static List<String> query(Path file, String sql) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      return values;
    } catch (SQLException e) {
      throw new AssertionError(sql, e);
    }
  }
}
