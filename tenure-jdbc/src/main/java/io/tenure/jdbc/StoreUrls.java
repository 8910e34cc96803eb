package io.tenure.jdbc;

import io.tenure.Stores;
import io.tenure.UnsupportedDatabaseException;
import io.tenure.jdbc.internal.Dialects;
import java.util.Locale;

/** Maps Tenure store URLs to JDBC URLs. */
final class StoreUrls {
  static final String FORMS = "sqlite:PATH, jdbc:postgresql://..., jdbc:mariadb://..., jdbc:mysql://...";
  private static final String SQLITE_JDBC = "jdbc:sqlite:";

  private StoreUrls() {}

  static boolean accepts(String url) {
    return url.startsWith("sqlite:") || url.startsWith("jdbc:");
  }

  /**
   * @throws IllegalArgumentException if a {@code sqlite:} URL has no path, or a SQLite URL names an
   *     in-memory database
   * @throws UnsupportedDatabaseException if the URL is of no known form
   */
  static String toJdbcUrl(String url) {
    String jdbcUrl = mapped(url);
    refuseInMemorySqlite(url, jdbcUrl);
    return jdbcUrl;
  }

  private static String mapped(String url) {
    if (url.startsWith("sqlite:")) {
      String path = url.substring("sqlite:".length());
      if (path.isBlank()) {
        throw new IllegalArgumentException("sqlite store URL needs a file path, e.g. sqlite:tenure.db, got '" + url + "'");
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
        "unknown store URL '" + Stores.maskSecrets(url) + "'; use one of " + FORMS
            + " (" + Dialects.SUPPORTED + ")",
        null);
  }

  /**
   * An in-memory SQLite database lives in one connection: each pooled connection would get its
   * own empty database, so the schema migrated on one is missing on the next.
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
          "SQLite URL '" + Stores.maskSecrets(url) + "' names an in-memory database, which each pooled"
              + " connection would see as a separate empty database; use memory:NAME for an"
              + " in-memory store or a file path such as sqlite:tenure.db");
    }
  }
}
