package io.tenure.spi;

import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * How to open a store on a caller's {@link DataSource}: the caller owns the data source, opens and
 * closes it; the store only borrows connections.
 *
 * @param dataSource the main data source
 * @param coordination a second data source on the same database for heartbeats and lease
 *     statements, so they never wait behind other work for a connection; null to use the main one
 * @param prefix the table prefix
 * @param migrate whether to create or upgrade the schema on open
 * @param requireSchema whether to refuse, on open, a store whose schema for this prefix is not in
 *     place at the version this build needs, creating nothing; needs {@code migrate} off
 */
public record DataSourceSettings(
    DataSource dataSource,
    @Nullable DataSource coordination,
    TablePrefix prefix,
    boolean migrate,
    boolean requireSchema) {
  /**
   * @throws IllegalArgumentException if the data source or the prefix is null, or both {@code
   *     migrate} and {@code requireSchema} are set
   */
  public DataSourceSettings {
    if (dataSource == null) {
      throw new IllegalArgumentException("data source must not be null");
    }
    if (prefix == null) {
      throw new IllegalArgumentException("table prefix must not be null");
    }
    if (migrate && requireSchema) {
      throw new IllegalArgumentException(
          "requireSchema opens a store without creating anything; it cannot be combined with migrate");
    }
  }
}
