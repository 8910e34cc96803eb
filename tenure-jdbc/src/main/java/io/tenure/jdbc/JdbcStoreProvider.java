package io.tenure.jdbc;

import io.tenure.spi.Store;
import io.tenure.spi.StoreProvider;
import io.tenure.spi.StoreSettings;

/** Opens {@code sqlite:} and {@code jdbc:} store URLs for {@link io.tenure.Stores#open}. */
public final class JdbcStoreProvider implements StoreProvider {
  /** For {@link java.util.ServiceLoader}. */
  public JdbcStoreProvider() {}

  @Override
  public boolean accepts(String url) {
    return StoreUrls.accepts(url);
  }

  @Override
  public String urlForms() {
    return StoreUrls.FORMS;
  }

  @Override
  public Store open(StoreSettings settings) {
    return JdbcStore.builder()
        .url(settings.url())
        .prefix(settings.prefix())
        .migrate(settings.migrate())
        .requireSchema(settings.requireSchema())
        .build();
  }
}
