package io.tenure.spi;

/**
 * How to open a store from a URL.
 *
 * @param url the store URL: {@code sqlite:PATH}, {@code jdbc:postgresql://...}, {@code
 *     jdbc:mariadb://...}, {@code jdbc:mysql://...} or {@code memory:NAME}
 * @param prefix the table prefix
 * @param migrate whether to create or upgrade the schema on open (otherwise a missing schema is
 *     reported on first use)
 */
public record StoreSettings(String url, TablePrefix prefix, boolean migrate) {
  /**
   * @throws IllegalArgumentException if the URL is null or blank, or the prefix is null
   */
  public StoreSettings {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("store URL must not be null or blank");
    }
    if (prefix == null) {
      throw new IllegalArgumentException("table prefix must not be null");
    }
  }

  /**
   * @return settings for {@code url} with the default prefix and migration on
   */
  public static StoreSettings of(String url) {
    return new StoreSettings(url, TablePrefix.DEFAULT, true);
  }
}
