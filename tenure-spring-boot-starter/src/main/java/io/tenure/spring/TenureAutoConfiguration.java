package io.tenure.spring;

import io.tenure.AgentFamily;
import io.tenure.Queue;
import io.tenure.QueueMiddleware;
import io.tenure.Tenure;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Tenure on the application's {@code DataSource} (or on {@code tenure.store}), its queues, and a
 * node that runs with the context (docs/SPRING.md). Every bean backs off when the application
 * defines one of its type.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Conditional(TenureAutoConfiguration.StoreAvailable.class)
@EnableConfigurationProperties(TenureProperties.class)
public final class TenureAutoConfiguration {
  /**
   * Tenure needs a store: {@code tenure.store}, the application's one {@code DataSource}, or a
   * {@code Tenure} of the application's own.
   */
  static final class StoreAvailable extends AnyNestedCondition {
    StoreAvailable() {
      super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnProperty(prefix = "tenure", name = "store")
    static final class StoreUrl {}

    @ConditionalOnSingleCandidate(DataSource.class)
    static final class ApplicationDataSource {}

    @ConditionalOnBean(Tenure.class)
    static final class ApplicationTenure {}
  }

  /**
   * Asking for the admin server without tenure-server stops the context instead of doing nothing.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingClass("io.tenure.server.AdminServer")
  @ConditionalOnProperty(prefix = "tenure.admin", name = "enabled", havingValue = "true")
  static final class AdminServerMissing {
    AdminServerMissing() {
      throw new IllegalStateException(
          "tenure.admin.enabled=true needs io.tenure:tenure-server on the class path; add it, or"
              + " leave the admin server off");
    }
  }

  /**
   * Opens Tenure, creating or upgrading its tables unless {@code tenure.migrate=false}, with the
   * application's {@link QueueMiddleware} beans around every queue; closed when the context closes,
   * after the node has left.
   *
   * @throws IllegalArgumentException naming the property if the settings do not go together
   */
  @Bean
  @ConditionalOnMissingBean
  Tenure tenure(
      TenureProperties properties,
      ObjectProvider<DataSource> dataSource,
      ObjectProvider<QueueMiddleware> middleware,
      ObjectProvider<TenureBuilderCustomizer> customizers,
      Environment environment) {
    TenureNodeLifecycle.checkBeforeOpening(properties, environment);
    return TenureOpener.open(properties, dataSource.getIfUnique(), middleware, customizers);
  }

  @Bean
  @ConditionalOnMissingBean
  TenureQueues tenureQueues(
      Tenure tenure, TenureProperties properties, ObjectProvider<DataSource> dataSource) {
    @Nullable DataSource transactional =
        properties.getStore() == null ? dataSource.getIfUnique() : null;
    return new TenureQueues(tenure, transactional, properties.getQueues());
  }

  /** Static: it must exist before the beans whose methods it finds. */
  @Bean
  static AnnotatedMethods tenureAnnotatedMethods() {
    return new AnnotatedMethods();
  }

  @Bean
  @ConditionalOnMissingBean
  TenureNodeLifecycle tenureNodeLifecycle(
      Tenure tenure,
      TenureQueues queues,
      TenureProperties properties,
      Environment environment,
      AnnotatedMethods methods,
      ObjectProvider<AgentFamily> families,
      ObjectProvider<Queue> queueBeans,
      ObjectProvider<TenureNodeCustomizer> customizers,
      ObjectProvider<AdminEndpoint> admin) {
    return new TenureNodeLifecycle(
        tenure, queues, properties, environment, methods, families, queueBeans, customizers, admin);
  }
}
