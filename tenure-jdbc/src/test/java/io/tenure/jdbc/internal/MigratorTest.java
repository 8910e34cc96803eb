package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.spi.TablePrefix;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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

class MigratorTest {

  @Test
  void a_script_splits_on_semicolons_that_end_a_line_and_skips_comments() {
    String script =
        "-- comment;\nCREATE TABLE a (x INT);\n\nCREATE TABLE b (\n  y TEXT -- why\n);\nSELECT 1";

    assertThat(Migrator.statements(script))
        .containsExactly(
            "CREATE TABLE a (x INT)", "CREATE TABLE b (\n  y TEXT -- why\n)", "SELECT 1");
  }

  @Test
  void every_dialect_has_every_schema_version() throws Exception {
    for (String folder : List.of("postgresql", "mariadb", "sqlite")) {
      for (String file : Migrator.FILES) {
        String path = "schema/" + folder + "/" + file;
        try (InputStream in = Migrator.class.getResourceAsStream(path)) {
          assertThat(in).as(path).isNotNull();
        }
      }
    }
  }

  @Test
  void applied_at_is_read_from_the_database_clock_not_the_jvm_clock(@TempDir Path dir)
      throws SQLException {
    // A database whose clock says 2000-01-01: only a value read from it can be stored.
    Dialect stoppedAt2000 = sqliteWithClock("(946684800000000)");
    TablePrefix prefix = TablePrefix.of("tclock_");
    try (Connection connection =
        DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("clock.db"))) {
      new Migrator(stoppedAt2000, prefix).migrate(connection);

      assertThat(appliedAt(connection, prefix))
          .hasSize(Migrator.LATEST)
          .containsOnly("2000-01-01T00:00:00Z");
    }
  }

  private static Dialect sqliteWithClock(String now) {
    Dialect sqlite = new SqliteDialect();
    return (Dialect)
        Proxy.newProxyInstance(
            MigratorTest.class.getClassLoader(),
            new Class<?>[] {Dialect.class},
            (proxy, method, args) -> {
              if (method.getName().equals("now")) {
                return now;
              }
              try {
                return method.invoke(sqlite, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static List<String> appliedAt(Connection connection, TablePrefix prefix)
      throws SQLException {
    List<String> times = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT applied_at FROM " + prefix.table("schema_version"))) {
      while (rows.next()) {
        times.add(rows.getString(1));
      }
    }
    return times;
  }
}
