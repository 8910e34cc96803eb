package io.tenure.spi;

/**
 * Opens stores for the URL forms it knows, and, if it can, on a caller's {@link
 * javax.sql.DataSource}. Found with {@link java.util.ServiceLoader}; {@link io.tenure.Stores#open}
 * and {@link io.tenure.Tenure} pick the one provider that accepts a URL, or the first that takes
 * data sources.
 */
public interface StoreProvider {
  /**
   * @param url a store URL
   * @return true if this provider opens URLs of this form; MUST NOT connect anywhere
   */
  boolean accepts(String url);

  /**
   * @return the URL forms accepted, for error messages, e.g. {@code memory:NAME}
   */
  String urlForms();

  /**
   * Opens a store. MUST refuse a database it does not support with {@link
   * io.tenure.UnsupportedDatabaseException} before writing anything.
   *
   * @param settings the URL, prefix and whether to migrate
   * @return an open store
   * @throws io.tenure.StoreUnavailableException if the database cannot be reached
   * @throws io.tenure.UnsupportedDatabaseException if the database is not supported
   */
  Store open(StoreSettings settings);

  /**
   * @return true if {@link #open(DataSourceSettings)} opens stores on a caller's data source; MUST
   *     NOT connect anywhere
   */
  boolean acceptsDataSources();

  /**
   * Opens a store on a caller's data source, which it MUST NOT close. MUST refuse a database it
   * does not support with {@link io.tenure.UnsupportedDatabaseException} before writing anything.
   *
   * @param settings the data source, prefix and whether to migrate
   * @return an open store
   * @throws UnsupportedOperationException if {@link #acceptsDataSources()} is false (nothing
   *     opened)
   * @throws io.tenure.StoreUnavailableException if the database cannot be reached
   * @throws io.tenure.UnsupportedDatabaseException if the database is not supported
   */
  Store open(DataSourceSettings settings);
}
