package io.tenure.inmemory;

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
}
