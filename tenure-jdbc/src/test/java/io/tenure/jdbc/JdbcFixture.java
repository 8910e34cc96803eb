package io.tenure.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.Stores;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import io.tenure.tck.StoreFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * The JDBC providers' fixture. SQLite gets a new file per fixture; PostgreSQL and MariaDB share the
 * {@code test} database and isolate tests by random table prefixes, dropped on close.
 *
 * <p>An unreachable server skips the provider's tests with a loud message locally, and fails them
 * when {@code CI=true}: CI must never pass by skipping a provider.
 */
public final class JdbcFixture implements StoreFixture {
  /** The providers this fixture knows. */
  public enum Kind {
    SQLITE("sqlite", null),
    POSTGRES("postgresql", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"),
    MARIADB("mariadb", "jdbc:mariadb://127.0.0.1:3306/test?user=root");

    final String provider;
    final String defaultUrl;

    Kind(String provider, String defaultUrl) {
      this.provider = provider;
      this.defaultUrl = defaultUrl;
    }

    /** The server URL, overridable with TENURE_TEST_POSTGRES_URL / TENURE_TEST_MARIADB_URL. */
    String url() {
      String override = System.getenv("TENURE_TEST_" + name() + "_URL");
      return override != null && !override.isBlank() ? override : defaultUrl;
    }
  }

  private final Kind kind;
  private final String url;
  private final @Nullable Path directory;
  private final List<Store> opened = new CopyOnWriteArrayList<>();
  private final List<HikariDataSource> pools = new CopyOnWriteArrayList<>();
  private final Set<TablePrefix> prefixes = ConcurrentHashMap.newKeySet();

  private JdbcFixture(Kind kind) {
    this.kind = kind;
    if (kind == Kind.SQLITE) {
      try {
        this.directory = Files.createTempDirectory("tenure-sqlite-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      this.url = "sqlite:" + directory.resolve("tenure.db");
    } else {
      this.directory = null;
      this.url = kind.url();
      requireReachable();
    }
  }

  /**
   * @return a fixture for {@code kind}; skips (locally) or fails (CI) if its server is down
   */
  public static JdbcFixture of(Kind kind) {
    return new JdbcFixture(kind);
  }

  /**
   * @return the store URL this fixture opens
   */
  public String url() {
    return url;
  }

  private void requireReachable() {
    try (Connection ignored = DriverManager.getConnection(url)) {
      // reachable
    } catch (SQLException e) {
      String message =
          "!!! "
              + kind.provider
              + " is not reachable at "
              + url
              + " ("
              + e.getMessage()
              + ")."
              + " Start it (see docs/PROVIDERS.md) or set TENURE_TEST_"
              + kind.name()
              + "_URL.";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(message + " CI=true: an unreachable provider fails the build.", e);
      }
      System.err.println(message + " Its tests are SKIPPED; CI would fail.");
      Assumptions.abort(message);
    }
  }

  @Override
  public String provider() {
    return kind.provider;
  }

  @Override
  public TablePrefix freshPrefix() {
    TablePrefix prefix =
        TablePrefix.of("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10) + "_");
    prefixes.add(prefix);
    return prefix;
  }

  @Override
  public Store open(TablePrefix prefix) {
    return track(JdbcStore.builder().url(url).prefix(prefix).build());
  }

  @Override
  public Supplier<Store> emptyDatabase() {
    if (kind != Kind.SQLITE) {
      // The servers' test database is shared: a prefix no one has used is an empty database.
      TablePrefix prefix = freshPrefix();
      return () -> open(prefix);
    }
    // A file that does not exist yet, in the fixture's directory (deleted on close).
    String emptyUrl = "sqlite:" + directory.resolve("empty-" + UUID.randomUUID() + ".db");
    return () -> track(JdbcStore.builder().url(emptyUrl).build());
  }

  @Override
  public Store openWithoutMigration(TablePrefix prefix) {
    return track(JdbcStore.builder().url(url).prefix(prefix).migrate(false).build());
  }

  @Override
  public Store openRequiringSchema(TablePrefix prefix) {
    return track(Stores.open(StoreSettings.existing(url, prefix)));
  }

  @Override
  public Store openWithSessionTimeZone(TablePrefix prefix, ZoneId sessionZone) {
    if (kind == Kind.SQLITE) {
      return open(prefix);
    }
    String zone = sessionZoneSetting(sessionZone);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(StoreUrls.toJdbcUrl(url));
    config.setMaximumPoolSize(4);
    config.setConnectionInitSql(
        kind == Kind.POSTGRES
            ? (sessionZone instanceof ZoneOffset
                // A quoted '+05:45' would be read as POSIX, east and west swapped.
                ? "SET TIME ZONE INTERVAL '" + zone + "' HOUR TO MINUTE"
                : "SET TIME ZONE '" + zone + "'")
            : "SET time_zone = '" + zone + "'");
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    assertSessionZone(pool, zone);
    return track(JdbcStore.builder().dataSource(pool).prefix(prefix).build());
  }

  /**
   * PostgreSQL sessions take the named zone itself, DST rules and all. MariaDB resolves names only
   * with the server's time-zone tables loaded (mysql_tzinfo_to_sql), which this server does not
   * have, so its sessions get the zone's offset now.
   */
  private String sessionZoneSetting(ZoneId zone) {
    if (kind == Kind.POSTGRES && !(zone instanceof ZoneOffset)) {
      return zone.getId();
    }
    return zone.getRules().getOffset(Instant.now()).getId().replace("Z", "+00:00");
  }

  /** Proves the session really runs in the zone, so the kit's time test is not vacuous. */
  private void assertSessionZone(HikariDataSource pool, String zone) {
    String query =
        kind == Kind.POSTGRES ? "SELECT current_setting('TimeZone')" : "SELECT @@session.time_zone";
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      rows.next();
      String actual = rows.getString(1);
      boolean named = kind == Kind.POSTGRES && !zone.startsWith("+") && !zone.startsWith("-");
      boolean right =
          kind == Kind.MARIADB || named
              ? actual.equals(zone)
              : !actual.equalsIgnoreCase("UTC") && !actual.equalsIgnoreCase("Etc/UTC");
      if (!right) {
        throw new AssertionError("session time zone is " + actual + ", expected " + zone);
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public java.util.Optional<Connection> openConnection() {
    try {
      return java.util.Optional.of(DriverManager.getConnection(StoreUrls.toJdbcUrl(url)));
    } catch (SQLException e) {
      throw new AssertionError("cannot open a connection to " + url, e);
    }
  }

  @Override
  public void dropTables(TablePrefix prefix) {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(url));
        Statement statement = connection.createStatement()) {
      List<String> tables = tables(connection, prefix);
      if (kind == Kind.SQLITE) {
        for (String table : tables) {
          statement.execute("DROP TABLE " + table);
        }
      } else if (!tables.isEmpty()) {
        // One statement, one commit: a test's 25 tables dropped one by one took 0.2 to 0.3 s on
        // PostgreSQL, in every test of the kit.
        statement.execute("DROP TABLE " + String.join(", ", tables));
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot drop tables of prefix " + prefix, e);
    }
  }

  /**
   * @return the tables whose names start with {@code prefix}; on SQLite the fixture's file must
   *     exist (a connection would create it)
   */
  public List<String> tables(TablePrefix prefix) {
    if (directory != null && !Files.exists(directory.resolve("tenure.db"))) {
      throw new IllegalStateException("no SQLite file yet: listing its tables would create it");
    }
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(url))) {
      return tables(connection, prefix);
    } catch (SQLException e) {
      throw new AssertionError("cannot list the tables of prefix " + prefix, e);
    }
  }

  @Override
  public void deleteAgentRows(TablePrefix prefix, java.util.Collection<io.tenure.AgentUri> uris) {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(url));
        java.sql.PreparedStatement delete =
            connection.prepareStatement(
                "DELETE FROM " + prefix.table("agents") + " WHERE agent_uri = ?")) {
      for (io.tenure.AgentUri uri : uris) {
        delete.setString(1, uri.toString());
        delete.executeUpdate();
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot delete agent rows of prefix " + prefix, e);
    }
  }

  private List<String> tables(Connection connection, TablePrefix prefix) throws SQLException {
    String query =
        switch (kind) {
          case SQLITE -> "SELECT name FROM sqlite_master WHERE type = 'table'";
          // pg_tables, not information_schema.tables: the view took 20x as long (0.4 s under
          // load), and every test lists its tables to drop them.
          case POSTGRES -> "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()";
          case MARIADB ->
              "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()";
        };
    List<String> tables = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      while (rows.next()) {
        String name = rows.getString(1);
        if (name.startsWith(prefix.value())) {
          tables.add(name);
        }
      }
    }
    return tables;
  }

  @Override
  public void openUnsupportedDatabase() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:tenure-unsupported-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    try {
      track(JdbcStore.builder().dataSource(h2).build());
    } finally {
      try (Connection connection = h2.getConnection();
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'PUBLIC'")) {
        rows.next();
        if (rows.getInt(1) != 0) {
          throw new AssertionError(
              "an unsupported database was written to: " + rows.getInt(1) + " tables");
        }
      } catch (SQLException e) {
        throw new AssertionError(e);
      }
    }
  }

  private Store track(Store store) {
    opened.add(store);
    return store;
  }

  @Override
  public void closeStores() {
    opened.forEach(Store::close);
    opened.clear();
    pools.forEach(HikariDataSource::close);
    pools.clear();
  }

  @Override
  public void close() {
    closeStores();
    for (TablePrefix prefix : prefixes) {
      dropTables(prefix);
    }
    if (directory == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
