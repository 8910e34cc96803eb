package io.tenure;

import io.tenure.spi.DataSourceSettings;
import io.tenure.spi.Store;
import io.tenure.spi.StoreProvider;
import io.tenure.spi.StoreSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Opens a store (the provider SPI) by URL or on a data source with whichever provider on the class
 * or module path accepts it. Applications open a {@link Tenure} instead; this is for providers,
 * tools and tests that work with the SPI.
 */
public final class Stores {
  private Stores() {}

  /**
   * Opens {@code url} with the default table prefix and migrates the schema.
   *
   * @throws IllegalArgumentException if the URL is null or blank
   * @throws UnsupportedDatabaseException if no provider accepts the URL, naming the forms known
   * @throws StoreUnavailableException if the database cannot be reached
   */
  public static Store open(String url) {
    return open(StoreSettings.of(url));
  }

  /**
   * @param settings the URL, prefix and whether to migrate
   * @return an open store
   * @throws IllegalArgumentException if {@code settings} is null
   * @throws UnsupportedDatabaseException if no provider accepts the URL, naming the forms known
   * @throws StoreUnavailableException if the database cannot be reached
   */
  public static Store open(StoreSettings settings) {
    if (settings == null) {
      throw new IllegalArgumentException("settings must not be null");
    }
    List<String> known = new ArrayList<>();
    for (StoreProvider provider :
        ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader())) {
      if (provider.accepts(settings.url())) {
        return provider.open(settings);
      }
      known.add(provider.urlForms());
    }
    throw new UnsupportedDatabaseException(
        "no Tenure store provider accepts the URL '"
            + maskSecrets(settings.url())
            + "'; supported forms: "
            + String.join(", ", known)
            + (known.size() < 2 ? " (add tenure-jdbc to the class path for SQL databases)" : ""),
        null);
  }

  /**
   * @param settings the data source, prefix and whether to migrate
   * @return a store on the caller's data source, opened by the first provider that takes data
   *     sources; closing the store leaves the data source open
   * @throws IllegalArgumentException if {@code settings} is null
   * @throws UnsupportedDatabaseException if no provider on the class path takes data sources
   *     (nothing opened), or the database behind it is not supported
   * @throws StoreUnavailableException if the database cannot be reached
   */
  public static Store open(DataSourceSettings settings) {
    if (settings == null) {
      throw new IllegalArgumentException("settings must not be null");
    }
    for (StoreProvider provider :
        ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader())) {
      if (provider.acceptsDataSources()) {
        return provider.open(settings);
      }
    }
    throw new UnsupportedDatabaseException(
        "no Tenure store provider on the class path opens a DataSource"
            + " (add tenure-jdbc to the class path); nothing opened",
        null);
  }

  /**
   * @param url a store URL
   * @return the URL with any {@code password=...} parameter and {@code user:password@} part masked
   */
  public static String maskSecrets(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***")
        .replaceAll("//([^/:@]+):[^/@]*@", "//$1:***@");
  }
}
