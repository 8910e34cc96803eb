package io.tenure.spring;

import io.tenure.QueueMiddleware;
import io.tenure.Tenure;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Opens Tenure as the {@code tenure.*} properties say, refusing settings that do not go together.
 */
final class TenureOpener {
  private TenureOpener() {}

  /**
   * @param dataSource the application's data source, used unless {@code tenure.store} is set
   * @param middleware the application's {@link QueueMiddleware} beans, run around every queue's
   *     enqueues and handler calls
   * @throws IllegalArgumentException naming the properties if they do not go together
   */
  static Tenure open(
      TenureProperties properties,
      @Nullable DataSource dataSource,
      ObjectProvider<QueueMiddleware> middleware,
      ObjectProvider<TenureBuilderCustomizer> customizers) {
    if (properties.isMigrate() && properties.isRequireSchema()) {
      throw new IllegalArgumentException(
          "tenure.require-schema=true opens without creating anything: set tenure.migrate=false");
    }
    Tenure.Builder builder;
    if (properties.getStore() != null) {
      builder = Tenure.builder(properties.getStore());
      if (properties.getPoolSize() != null) {
        builder.poolSize(properties.getPoolSize());
      }
    } else {
      if (dataSource == null) {
        throw new IllegalStateException(
            "Tenure needs tenure.store or exactly one DataSource bean; there is none");
      }
      if (properties.getPoolSize() != null) {
        throw new IllegalArgumentException(
            "tenure.pool-size sizes the pool Tenure opens for tenure.store; on the application's"
                + " DataSource, size that pool instead (spring.datasource.hikari.maximum-pool-size)");
      }
      builder = Tenure.builder(dataSource);
    }
    builder
        .prefix(properties.getTablePrefix())
        .migrate(properties.isMigrate())
        .requireSchema(properties.isRequireSchema());
    if (properties.getProcessName() != null) {
      try {
        builder.name(properties.getProcessName());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("tenure.process-name: " + e.getMessage());
      }
    }
    // In their order, the first outermost: e.g. tenure-opentelemetry's TenureTracing.
    middleware.orderedStream().forEach(builder::middleware);
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return builder.open();
  }
}
