package io.tenure.jdbc;

import io.tenure.UnsupportedDatabaseException;
import io.tenure.jdbc.internal.Dialects;

/** Maps Tenure store URLs to JDBC URLs. */
final class StoreUrls {
  static final String FORMS = "sqlite:PATH, jdbc:postgresql://..., jdbc:mariadb://..., jdbc:mysql://...";

  private StoreUrls() {}

  static boolean accepts(String url) {
    return url.startsWith("sqlite:") || url.startsWith("jdbc:");
  }

  /**
   * @throws IllegalArgumentException if a {@code sqlite:} URL has no path
   * @throws UnsupportedDatabaseException if the URL is of no known form
   */
  static String toJdbcUrl(String url) {
    if (url.startsWith("sqlite:")) {
      String path = url.substring("sqlite:".length());
      if (path.isBlank()) {
        throw new IllegalArgumentException("sqlite store URL needs a file path, e.g. sqlite:tenure.db, got '" + url + "'");
      }
      return "jdbc:sqlite:" + path;
    }
    if (url.startsWith("jdbc:mysql:")) {
      // The MariaDB driver speaks to MySQL 8 too; the database is still detected from metadata.
      return "jdbc:mariadb:" + url.substring("jdbc:mysql:".length());
    }
    if (url.startsWith("jdbc:")) {
      return url;
    }
    throw new UnsupportedDatabaseException(
        "unknown store URL '" + io.tenure.Stores.maskSecrets(url) + "'; use one of " + FORMS
            + " (" + Dialects.SUPPORTED + ")",
        null);
  }
}
