package io.tenure.test;

import io.tenure.Stores;
import io.tenure.Tenure;
import io.tenure.inmemory.InMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * One test's store, opened fresh, and what removes it afterwards: nothing for the in-memory store,
 * the temporary folder of a SQLite file, the tables of a server database's random prefix.
 *
 * @param tenure the open store
 * @param clock its clock
 * @param removal what to remove once the store is closed
 */
record FreshStore(Tenure tenure, TestClock clock, Removal removal) implements AutoCloseable {
  /** The process name the kit's stores give Tenure (the holder of the locks a test takes). */
  static final String NAME = "tenure-test";

  /** What remains of a store once it is closed, and removes it. */
  @FunctionalInterface
  interface Removal {
    void remove() throws Exception;
  }

  /** A fresh in-memory database whose clock is a {@link TestClock} starting at {@code start}. */
  static FreshStore inMemory(Instant start) {
    TestClock clock = TestClock.movable(start);
    InMemoryStore store = InMemoryStore.builder().clock(clock.instantSource()).build();
    return new FreshStore(Tenure.on(store, NAME), clock, () -> {});
  }

  /** A SQLite file in a new temporary folder, deleted with the folder afterwards. */
  static FreshStore sqlite() {
    Path folder;
    try {
      folder = Files.createTempDirectory("tenure-test-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary folder for a SQLite store", e);
    }
    Removal removal = () -> deleteFolder(folder);
    try {
      Tenure tenure = Tenure.builder("sqlite:" + folder.resolve("tenure.db")).name(NAME).open();
      return ofDatabase(tenure, removal);
    } catch (RuntimeException e) {
      removeAfterFailure(removal, e);
      throw e;
    }
  }

  /**
   * A random table prefix of its own on the database at {@code url}, its tables dropped afterwards.
   */
  static FreshStore url(String url) {
    String prefix = "tt" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_";
    Removal removal = () -> dropTables(url, prefix);
    try {
      Tenure tenure = Tenure.builder(url).prefix(prefix).name(NAME).open();
      return ofDatabase(tenure, removal);
    } catch (RuntimeException e) {
      removeAfterFailure(removal, e);
      throw e;
    }
  }

  /**
   * @return {@code jdbcUrl}
   * @throws IllegalArgumentException if it is null or not a {@code jdbc:} URL (a password masked)
   */
  static String checkUrl(String jdbcUrl) {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "url(...) takes a server database's JDBC URL, e.g."
              + " jdbc:postgresql://127.0.0.1:5432/test?user=postgres, got "
              + (jdbcUrl == null ? "null" : "'" + Stores.maskSecrets(jdbcUrl) + "'")
              + "; use sqlite() for SQLite and inMemory() for the in-memory store");
    }
    return jdbcUrl;
  }

  private static FreshStore ofDatabase(Tenure tenure, Removal removal) {
    return new FreshStore(
        tenure, TestClock.ofDatabase(tenure.store()::now, tenure.toString()), removal);
  }

  /** A failed open may have created a file or tables: removed, its failure kept with the cause. */
  private static void removeAfterFailure(Removal removal, RuntimeException cause) {
    try {
      removal.remove();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Closes the store, then removes what it left; a failure of either is thrown, the second
   * suppressed in the first.
   */
  @Override
  public void close() {
    RuntimeException failure = null;
    try {
      tenure.close();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      removal.remove();
    } catch (Exception e) {
      IllegalStateException removing =
          new IllegalStateException("cannot remove the test store " + tenure + ": " + e, e);
      if (failure == null) {
        failure = removing;
      } else {
        failure.addSuppressed(removing);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void deleteFolder(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return; // removed already
    }
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  /** Drops the prefix's tables, found in the database's catalog by name. */
  private static void dropTables(String url, String prefix) throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl(url));
        Statement statement = connection.createStatement()) {
      for (String table : tables(connection, prefix)) {
        statement.execute("DROP TABLE " + table);
      }
    }
  }

  private static List<String> tables(Connection connection, String prefix) throws SQLException {
    List<String> tables = new ArrayList<>();
    DatabaseMetaData meta = connection.getMetaData();
    try (ResultSet rows =
        meta.getTables(connection.getCatalog(), null, "%", new String[] {"TABLE"})) {
      while (rows.next()) {
        String name = rows.getString("TABLE_NAME");
        if (name.toLowerCase(Locale.ROOT).startsWith(prefix)) {
          tables.add(name);
        }
      }
    }
    return tables;
  }

  /** Tenure opens {@code jdbc:mysql:} URLs with the MariaDB driver, which answers to its own. */
  private static String jdbcUrl(String url) {
    return url.startsWith("jdbc:mysql:") ? "jdbc:mariadb:" + url.substring(11) : url;
  }
}
