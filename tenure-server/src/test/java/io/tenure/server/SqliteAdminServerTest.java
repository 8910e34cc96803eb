package io.tenure.server;

import io.tenure.Stores;
import io.tenure.spi.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The admin server on an embedded SQLite file, fresh per test. */
class SqliteAdminServerTest extends AdminServerContract {
  @TempDir Path folder;

  @Override
  Store openStore() {
    return Stores.open("sqlite:" + folder.resolve("tenure.db"));
  }

  @Override
  java.sql.Connection openConnection() throws java.sql.SQLException {
    return java.sql.DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("tenure.db"));
  }
}
