package io.tenure.spring;

import io.tenure.Tenure;

/**
 * Changes the {@link Tenure.Builder} after the {@code tenure.*} properties are applied, just before
 * Tenure is opened: e.g. to give it a {@link Tenure.Builder#coordinationDataSource coordination
 * data source}. Beans of this type are applied in their order.
 */
@FunctionalInterface
public interface TenureBuilderCustomizer {
  /**
   * @param builder the builder; its setters check their arguments as usual
   */
  void customize(Tenure.Builder builder);
}
