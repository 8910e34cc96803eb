package io.tenure.jdbc.internal;

import io.tenure.UnsupportedDatabaseException;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/** Picks the dialect from JDBC metadata and refuses a database it does not know. */
public final class Dialects {
  /** The products Tenure supports, for error messages. */
  public static final String SUPPORTED = "SQLite 3.42+, PostgreSQL 15+, MariaDB 10.6+, MySQL 8.0+";

  private Dialects() {}

  /**
   * @return the dialect of the database behind {@code metadata}
   * @throws UnsupportedDatabaseException naming the product found and the ones supported
   */
  public static Dialect detect(DatabaseMetaData metadata) throws SQLException {
    String product = metadata.getDatabaseProductName();
    String version = metadata.getDatabaseProductVersion();
    String key = product == null ? "" : product.toLowerCase(Locale.ROOT);
    return switch (key) {
      case "sqlite" -> new SqliteDialect();
      case "postgresql" -> new PostgresDialect();
      case "mariadb" -> new MariaDbDialect("mariadb");
      case "mysql" -> new MariaDbDialect("mysql");
      default ->
          throw new UnsupportedDatabaseException(
              "Tenure does not support the database '" + product + " " + version
                  + "'; supported: " + SUPPORTED,
              null);
    };
  }
}
