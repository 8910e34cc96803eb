package io.tenure.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.Stores;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.jdbc.internal.Dialects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Opens the Hikari pools a store owns when it is given a URL (SQLite gets WAL, the busy timeout and
 * its directory), and says why one cannot open without ever showing the URL's secrets.
 */
final class PoolOpener {
  /** The MariaDB driver's setting for the largest statement it sends. */
  private static final String MARIADB_PACKET_LIMIT = "maxAllowedPacket";

  private final String url;
  private final @Nullable String user;
  private final @Nullable String password;
  private final boolean migrate;
  private final Duration connectTimeout;
  private final String location;
  private @Nullable Long packetLimit;

  PoolOpener(
      String url,
      @Nullable String user,
      @Nullable String password,
      boolean migrate,
      Duration connectTimeout) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.migrate = migrate;
    this.connectTimeout = connectTimeout;
    this.location = Stores.maskSecrets(url);
  }

  /**
   * @return a started pool named {@code name} of up to {@code size} connections, each waited for at
   *     most {@code wait}
   * @throws UnsupportedDatabaseException if no driver serves the URL
   * @throws StoreUnavailableException if the database cannot be reached or a SQLite directory made
   * @throws SchemaMissingException if migration is off and a SQLite file does not exist
   */
  HikariDataSource open(String name, int size, Duration wait) {
    String jdbcUrl = StoreUrls.toJdbcUrl(url);
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(jdbcUrl);
    if (user != null) {
      config.setUsername(user);
    }
    if (password != null) {
      config.setPassword(password);
    }
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(Math.min(2, size));
    config.setConnectionTimeout(wait.toMillis());
    config.setInitializationFailTimeout(connectTimeout.toMillis());
    if (!jdbcUrl.startsWith("jdbc:sqlite:")) {
      // Every connection starts at the isolation Tenure's transactions use (SPEC §1), so a write
      // transaction need not read, set and restore it: three round trips of five in a claim.
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    if (jdbcUrl.startsWith("jdbc:mariadb:")) {
      packetLimit(jdbcUrl)
          .ifPresent(
              limit -> config.addDataSourceProperty(MARIADB_PACKET_LIMIT, String.valueOf(limit)));
    }
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      String path = jdbcUrl.substring("jdbc:sqlite:".length());
      if (!migrate) {
        // Opening would create an empty file: a store that must not change the schema refuses.
        requireExistingFile(path);
        if (isPlainPath(path)) {
          // Read-write without SQLITE_OPEN_CREATE: a file removed after the check is not made anew
          // by this pool's connections, which open (and would create) it long after the check.
          config.addDataSourceProperty("open_mode", String.valueOf(SQLITE_OPEN_READWRITE));
        }
      } else {
        createParentDirectory(path);
      }
      config.addDataSourceProperty("journal_mode", "WAL");
      config.addDataSourceProperty("synchronous", "NORMAL");
      config.addDataSourceProperty(
          "busy_timeout", String.valueOf(JdbcStore.Builder.DEFAULT_SQLITE_BUSY_TIMEOUT.toMillis()));
      config.addDataSourceProperty("foreign_keys", "true");
    }
    try {
      return new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof SQLException sql
          && "08001".equals(sql.getSQLState())
          && String.valueOf(sql.getMessage()).contains("No suitable driver")) {
        throw new UnsupportedDatabaseException(
            "no JDBC driver for " + location + "; supported: " + Dialects.SUPPORTED,
            withoutSecrets(cause));
      }
      throw openFailure(jdbcUrl, cause);
    } catch (RuntimeException e) {
      if (String.valueOf(e.getMessage()).contains("Failed to get driver instance")) {
        // Hikari's message holds the unmasked JDBC URL; its cause ("No suitable driver") does not.
        throw new UnsupportedDatabaseException(
            "no JDBC driver for " + location + "; supported: " + Dialects.SUPPORTED,
            withoutSecrets(e));
      }
      throw e;
    }
  }

  /**
   * The server's {@code max_allowed_packet}, read once with a connection of its own, for the
   * driver's {@code maxAllowedPacket}. Without it the driver sends a statement the server refuses,
   * the server closes the connection part-way, and all the driver can report is a socket error,
   * which reads as an outage; with it the driver refuses the statement first, naming both sizes,
   * and the dialect's classifier reports bad input. A URL that sets it keeps its own value.
   *
   * @throws StoreUnavailableException as the pool would, if the server cannot be reached: waiting
   *     for the pool to find out again would double the connect timeout
   */
  private java.util.Optional<Long> packetLimit(String jdbcUrl) {
    if (jdbcUrl
        .toLowerCase(java.util.Locale.ROOT)
        .contains(MARIADB_PACKET_LIMIT.toLowerCase(java.util.Locale.ROOT))) {
      return java.util.Optional.empty();
    }
    if (packetLimit == null) {
      java.util.Properties properties = new java.util.Properties();
      if (user != null) {
        properties.setProperty("user", user);
      }
      if (password != null) {
        properties.setProperty("password", password);
      }
      properties.setProperty("connectTimeout", String.valueOf(connectTimeout.toMillis()));
      try (java.sql.Connection connection =
              java.sql.DriverManager.getConnection(jdbcUrl, properties);
          java.sql.Statement statement = connection.createStatement();
          java.sql.ResultSet rows = statement.executeQuery("SELECT @@max_allowed_packet")) {
        packetLimit = rows.next() ? rows.getLong(1) : null;
      } catch (SQLException e) {
        throw openFailure(jdbcUrl, e);
      }
    }
    return java.util.Optional.ofNullable(packetLimit);
  }

  /** A missing database or SQLite file is not a passing outage: it stays missing until created. */
  private RuntimeException openFailure(String jdbcUrl, Throwable cause) {
    if (cause instanceof SQLException sql && isUnknownDatabase(sql)) {
      // Not a passing outage: nothing changes until someone creates the database.
      return new SchemaMissingException(
          "the database of Tenure store "
              + location
              + " does not exist ("
              + masked(sql.getMessage())
              + "); create it on the server (CREATE DATABASE), then run 'tenure migrate'",
          withoutSecrets(cause));
    }
    if (cause instanceof SQLException sql && missingSqliteFile(jdbcUrl, sql)) {
      return new SchemaMissingException(
          "no Tenure database at "
              + Path.of(jdbcUrl.substring("jdbc:sqlite:".length())).toAbsolutePath()
              + " (it is not created without migration); run 'tenure migrate' or open the store with"
              + " migration on",
          withoutSecrets(cause));
    }
    return unavailable(cause);
  }

  private StoreUnavailableException unavailable(Throwable cause) {
    return new StoreUnavailableException(
        "cannot connect to Tenure store " + location + ": " + masked(cause.getMessage()),
        withoutSecrets(cause));
  }

  /**
   * @return the first exception in {@code failure}'s cause chain whose own chain reveals no secret,
   *     or null: a cause is printed with --verbose, so one that carries the password in its message
   *     must not be attached
   */
  private @Nullable Throwable withoutSecrets(Throwable failure) {
    for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
      if (!revealsSecret(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private boolean revealsSecret(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (!masked(message).equals(message)) {
        return true;
      }
    }
    return false;
  }

  /** Masks a URL's password in {@code text}, and the builder's password wherever it appears. */
  private String masked(@Nullable String text) {
    String masked = Stores.maskSecrets(String.valueOf(text));
    return password == null || password.isEmpty() ? masked : masked.replace(password, "***");
  }

  /**
   * SQLite's {@code SQLITE_OPEN_READWRITE} alone: the driver's default adds {@code
   * SQLITE_OPEN_CREATE}.
   */
  private static final int SQLITE_OPEN_READWRITE = 0x02;

  /** PostgreSQL's invalid_catalog_name (3D000), MariaDB/MySQL's ER_BAD_DB_ERROR (1049). */
  private static boolean isUnknownDatabase(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql
          && ("3D000".equals(sql.getSQLState()) || sql.getErrorCode() == 1049)) {
        return true;
      }
    }
    return false;
  }

  /**
   * SQLITE_CANTOPEN (14) of a file opened without the create flag: it was removed after the check.
   */
  private boolean missingSqliteFile(String jdbcUrl, SQLException e) {
    return !migrate && jdbcUrl.startsWith("jdbc:sqlite:") && e.getErrorCode() == 14;
  }

  private static void requireExistingFile(String path) {
    if (!isPlainPath(path)) {
      return;
    }
    if (!Files.exists(Path.of(path))) {
      throw new SchemaMissingException(
          "no Tenure database at "
              + Path.of(path).toAbsolutePath()
              + "; run 'tenure migrate' or open the store with migration on",
          null);
    }
  }

  private static boolean isPlainPath(String path) {
    return !path.isEmpty() && !path.startsWith(":memory:") && !path.startsWith("file:");
  }

  private static void createParentDirectory(String path) {
    if (!isPlainPath(path)) {
      return;
    }
    Path parent = Path.of(path).toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      try {
        Files.createDirectories(parent);
      } catch (java.io.IOException | RuntimeException e) {
        throw new StoreUnavailableException(
            "cannot create the directory " + parent + " for SQLite file " + path + ": " + e, e);
      }
    }
  }
}
