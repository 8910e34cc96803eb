package io.tenure.jdbc;

import io.tenure.spi.DataSourceSettings;
import io.tenure.spi.Store;
import io.tenure.spi.StoreProvider;
import io.tenure.spi.StoreSettings;

/**
 * Opens {@code sqlite:} and {@code jdbc:} store URLs, and stores on a caller's data source, for
 * {@link io.tenure.Stores#open} and {@link io.tenure.Tenure}.
 */
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
        .poolSize(settings.poolSize())
        .build();
  }

  @Override
  public boolean acceptsDataSources() {
    return true;
  }

  @Override
  public Store open(DataSourceSettings settings) {
    JdbcStore.Builder builder =
        JdbcStore.builder()
            .dataSource(settings.dataSource())
            .prefix(settings.prefix())
            .migrate(settings.migrate())
            .requireSchema(settings.requireSchema());
    if (settings.coordination() != null) {
      builder.coordinationDataSource(settings.coordination());
    }
    return builder.build();
  }
}
