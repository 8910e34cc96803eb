package io.tenure.inmemory;

import io.tenure.spi.DataSourceSettings;
import io.tenure.spi.Store;
import io.tenure.spi.StoreProvider;
import io.tenure.spi.StoreSettings;

/** Opens {@code memory:NAME} URLs: stores with the same name share one {@link InMemoryDatabase}. */
public final class InMemoryStoreProvider implements StoreProvider {
  private static final String SCHEME = "memory:";

  /** For {@link java.util.ServiceLoader}. */
  public InMemoryStoreProvider() {}

  @Override
  public boolean accepts(String url) {
    return url.startsWith(SCHEME);
  }

  @Override
  public String urlForms() {
    return "memory:NAME";
  }

  @Override
  public Store open(StoreSettings settings) {
    String name = settings.url().substring(SCHEME.length());
    if (name.isBlank()) {
      throw new IllegalArgumentException(
          "in-memory store URL needs a name, e.g. memory:test, got '" + settings.url() + "'");
    }
    return InMemoryStore.builder()
        .database(InMemoryDatabase.named(name))
        .prefix(settings.prefix())
        .migrate(settings.migrate())
        .requireSchema(settings.requireSchema())
        .build();
  }

  /** An in-memory store has no database behind it, so no data source to borrow from. */
  @Override
  public boolean acceptsDataSources() {
    return false;
  }

  @Override
  public Store open(DataSourceSettings settings) {
    throw new UnsupportedOperationException(
        "the in-memory provider opens memory:NAME URLs, not data sources");
  }
}
