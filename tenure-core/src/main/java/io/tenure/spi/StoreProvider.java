package io.tenure.spi;

/**
 * Opens stores for the URL forms it knows. Found with {@link java.util.ServiceLoader}; {@link
 * io.tenure.Stores#open} picks the one provider that accepts a URL.
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
}
