package io.tenure.jdbc;

import io.tenure.Stores;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.jdbc.internal.Dialects;
import java.util.Locale;

/** Maps Tenure store URLs to JDBC URLs. */
final class StoreUrls {
  static final String FORMS =
      "sqlite:PATH, jdbc:postgresql://..., jdbc:mariadb://..., jdbc:mysql://...";
  private static final String SQLITE_JDBC = "jdbc:sqlite:";

  private StoreUrls() {}

  static boolean accepts(String url) {
    return url.startsWith("sqlite:") || url.startsWith("jdbc:");
  }

  /**
   * @throws IllegalArgumentException if a {@code sqlite:} URL has no path, a SQLite URL names an
   *     in-memory database, or a PostgreSQL or MariaDB/MySQL URL names no database
   * @throws UnsupportedDatabaseException if the URL is of no known form
   */
  static String toJdbcUrl(String url) {
    String jdbcUrl = mapped(url);
    refuseInMemorySqlite(url, jdbcUrl);
    requireDatabaseName(url, jdbcUrl);
    return jdbcUrl;
  }

  /**
   * A server URL without a database connects to a default one (PostgreSQL: the user's name;
   * MariaDB: none at all), where a Tenure schema is created or looked for by accident.
   */
  private static void requireDatabaseName(String url, String jdbcUrl) {
    String scheme =
        jdbcUrl.startsWith("jdbc:postgresql:")
            ? "jdbc:postgresql:"
            : jdbcUrl.startsWith("jdbc:mariadb:") ? "jdbc:mariadb:" : null;
    if (scheme == null || !databaseName(jdbcUrl.substring(scheme.length())).isEmpty()) {
      return;
    }
    String example =
        scheme.equals("jdbc:postgresql:")
            ? "jdbc:postgresql://127.0.0.1:5432/app"
            : url.startsWith("jdbc:mysql:")
                ? "jdbc:mysql://127.0.0.1:3306/app"
                : "jdbc:mariadb://127.0.0.1:3306/app";
    throw new IllegalArgumentException(
        "store URL '"
            + Stores.maskSecrets(url)
            + "' names no database; name the one that holds"
            + " (or will hold) the Tenure tables, e.g. "
            + example);
  }

  /**
   * @param rest the URL after {@code jdbc:postgresql:} or {@code jdbc:mariadb:}: {@code
   *     //host:port/db?...}, {@code /db}, {@code db}, or a MariaDB mode such as {@code
   *     sequential://host/db}
   * @return the database name, or empty if there is none
   */
  static String databaseName(String rest) {
    int query = rest.indexOf('?');
    String path = query < 0 ? rest : rest.substring(0, query);
    int authority = path.indexOf("//");
    if (authority >= 0) {
      int slash = path.indexOf('/', authority + 2);
      return slash < 0 ? "" : path.substring(slash + 1);
    }
    return path.startsWith("/") ? path.substring(1) : path;
  }

  private static String mapped(String url) {
    if (url.startsWith("sqlite:")) {
      String path = url.substring("sqlite:".length());
      if (path.isBlank()) {
        throw new IllegalArgumentException(
            "sqlite store URL needs a file path, e.g. sqlite:tenure.db, got '" + url + "'");
      }
      return SQLITE_JDBC + path;
    }
    if (url.startsWith("jdbc:mysql:")) {
      // The MariaDB driver speaks to MySQL 8 too; the database is still detected from metadata.
      return "jdbc:mariadb:" + url.substring("jdbc:mysql:".length());
    }
    if (url.startsWith("jdbc:")) {
      return url;
    }
    throw new UnsupportedDatabaseException(
        "unknown store URL '"
            + Stores.maskSecrets(url)
            + "'; use one of "
            + FORMS
            + " ("
            + Dialects.SUPPORTED
            + ")",
        null);
  }

  /**
   * An in-memory SQLite database lives in one connection: each pooled connection would get its own
   * empty database, so the schema migrated on one is missing on the next.
   */
  private static void refuseInMemorySqlite(String url, String jdbcUrl) {
    if (!jdbcUrl.startsWith(SQLITE_JDBC)) {
      return;
    }
    String path = jdbcUrl.substring(SQLITE_JDBC.length()).toLowerCase(Locale.ROOT);
    if (path.isBlank()
        || path.startsWith(":memory:")
        || path.startsWith("file::memory:")
        || path.contains("mode=memory")) {
      throw new IllegalArgumentException(
          "SQLite URL '"
              + Stores.maskSecrets(url)
              + "' names an in-memory database, which each pooled"
              + " connection would see as a separate empty database; use memory:NAME for an"
              + " in-memory store or a file path such as sqlite:tenure.db");
    }
  }
}
