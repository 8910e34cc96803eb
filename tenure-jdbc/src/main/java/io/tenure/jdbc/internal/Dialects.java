package io.tenure.jdbc.internal;

import io.tenure.UnsupportedDatabaseException;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

/**
 * Picks the dialect from JDBC metadata and refuses a database it does not know or that is too old.
 */
public final class Dialects {
  /** The products Tenure supports, for error messages. */
  public static final String SUPPORTED = "SQLite 3.42+, PostgreSQL 15+, MariaDB 10.6+, MySQL 8.0+";

  /** How long a SQLite writer waits for the write lock, on every connection Tenure borrows. */
  public static final java.time.Duration SQLITE_BUSY_TIMEOUT = SqliteDialect.BUSY_TIMEOUT;

  /**
   * The oldest version of each product that has what the dialects use: SQLite 3.42 for {@code
   * unixepoch('subsec')}, PostgreSQL 15 and MariaDB 10.6 / MySQL 8.0 for {@code SKIP LOCKED} and
   * the tested SQL. Keyed by the lower-case product name JDBC reports.
   */
  private static final Map<String, Minimum> MINIMUMS =
      Map.of(
          "sqlite", new Minimum("SQLite 3.42", 3, 42),
          "postgresql", new Minimum("PostgreSQL 15", 15, 0),
          "mariadb", new Minimum("MariaDB 10.6", 10, 6),
          "mysql", new Minimum("MySQL 8.0", 8, 0));

  private Dialects() {}

  /** The oldest supported version of one product. */
  private record Minimum(String name, int major, int minor) {
    boolean admits(int foundMajor, int foundMinor) {
      return foundMajor > major || (foundMajor == major && foundMinor >= minor);
    }
  }

  /**
   * @return the dialect of the database behind {@code metadata}
   * @throws UnsupportedDatabaseException naming the product and version found and the ones
   *     supported, if the product is unknown or older than its minimum
   */
  public static Dialect detect(DatabaseMetaData metadata) throws SQLException {
    String product = metadata.getDatabaseProductName();
    String version = metadata.getDatabaseProductVersion();
    String key = product == null ? "" : product.toLowerCase(Locale.ROOT);
    Dialect dialect =
        switch (key) {
          case "sqlite" -> new SqliteDialect();
          case "postgresql" -> new PostgresDialect();
          case "mariadb" -> new MariaDbDialect("mariadb");
          case "mysql" -> new MariaDbDialect("mysql");
          default ->
              throw new UnsupportedDatabaseException(
                  "Tenure does not support the database '"
                      + product
                      + " "
                      + version
                      + "'; supported: "
                      + SUPPORTED,
                  null);
        };
    requireMinimum(MINIMUMS.get(key), product + " " + version, metadata);
    return dialect;
  }

  private static void requireMinimum(Minimum minimum, String found, DatabaseMetaData metadata)
      throws SQLException {
    int major = metadata.getDatabaseMajorVersion();
    int minor = metadata.getDatabaseMinorVersion();
    if (!minimum.admits(major, minor)) {
      throw new UnsupportedDatabaseException(
          "Tenure needs "
              + minimum.name()
              + " or newer, found '"
              + found
              + "' (version "
              + major
              + "."
              + minor
              + "); supported: "
              + SUPPORTED,
          null);
    }
  }
}
