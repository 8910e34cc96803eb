package io.tenure.spi;

/**
 * How to open a store from a URL.
 *
 * @param url the store URL: {@code sqlite:PATH}, {@code jdbc:postgresql://...}, {@code
 *     jdbc:mariadb://...}, {@code jdbc:mysql://...} or {@code memory:NAME}
 * @param prefix the table prefix
 * @param migrate whether to create or upgrade the schema on open (otherwise a missing schema is
 *     reported on first use)
 * @param requireSchema whether to refuse, on open, a store whose schema for this prefix is not in
 *     place at the version this build needs, creating nothing: no table, no SQLite file or folder.
 *     For tools that read or change rows but must never create a schema; needs {@code migrate} off
 * @param poolSize connections in the pool the store opens for the URL, {@link #MIN_POOL_SIZE} to
 *     {@link #MAX_POOL_SIZE}; a provider without connections (in-memory) ignores it
 */
public record StoreSettings(
    String url, TablePrefix prefix, boolean migrate, boolean requireSchema, int poolSize) {
  /** Connections in a store's own pool unless set. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /** The smallest pool a store opens. */
  public static final int MIN_POOL_SIZE = 1;

  /** The largest pool a store opens. */
  public static final int MAX_POOL_SIZE = 200;

  /**
   * @throws IllegalArgumentException if the URL is null or blank, the prefix is null, both {@code
   *     migrate} and {@code requireSchema} are set, or the pool size is out of range
   */
  public StoreSettings {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("store URL must not be null or blank");
    }
    if (prefix == null) {
      throw new IllegalArgumentException("table prefix must not be null");
    }
    if (migrate && requireSchema) {
      throw new IllegalArgumentException(
          "requireSchema opens a store without creating anything; it cannot be combined with migrate");
    }
    checkPoolSize(poolSize);
  }

  /**
   * Settings with the default pool size.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public StoreSettings(String url, TablePrefix prefix, boolean migrate, boolean requireSchema) {
    this(url, prefix, migrate, requireSchema, DEFAULT_POOL_SIZE);
  }

  /**
   * Settings that do not require the schema at open, with the default pool size.
   *
   * @throws IllegalArgumentException if the URL is null or blank, or the prefix is null
   */
  public StoreSettings(String url, TablePrefix prefix, boolean migrate) {
    this(url, prefix, migrate, false);
  }

  /**
   * @return settings for {@code url} with the default prefix and migration on
   */
  public static StoreSettings of(String url) {
    return new StoreSettings(url, TablePrefix.DEFAULT, true);
  }

  /**
   * @return settings that open an existing, current schema and never create one: for operator tools
   *     that read the store or change its rows
   * @throws IllegalArgumentException if the URL is null or blank, or the prefix is null
   */
  public static StoreSettings existing(String url, TablePrefix prefix) {
    return new StoreSettings(url, prefix, false, true);
  }

  /**
   * @return {@code poolSize}, checked
   * @throws IllegalArgumentException naming the value if it is out of range
   */
  public static int checkPoolSize(int poolSize) {
    if (poolSize < MIN_POOL_SIZE || poolSize > MAX_POOL_SIZE) {
      throw new IllegalArgumentException(
          "pool size must be between "
              + MIN_POOL_SIZE
              + " and "
              + MAX_POOL_SIZE
              + ", got "
              + poolSize);
    }
    return poolSize;
  }
}
