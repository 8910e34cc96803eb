package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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

  @Test
  void status_without_migration_on_a_missing_file_points_at_migrate_and_creates_nothing() {
    Cli.Result status = Cli.run("status", "--no-migrate", "--store", url());

    assertThat(status.exitCode()).as(status.toString()).isEqualTo(1);
    assertThat(status.err()).contains("tenure migrate");
    assertThat(directory.resolve("t.db")).doesNotExist();
  }
}
