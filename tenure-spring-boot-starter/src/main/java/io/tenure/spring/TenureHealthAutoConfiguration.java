package io.tenure.spring;

import io.tenure.Tenure;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Tenure's health indicator, named {@code tenure} in {@code /actuator/health}, when Spring Boot's
 * health support is on the class path; {@code management.health.tenure.enabled=false} turns it off.
 */
@AutoConfiguration(after = TenureAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(Tenure.class)
@ConditionalOnEnabledHealthIndicator("tenure")
public final class TenureHealthAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(name = "tenureHealthIndicator")
  TenureHealthIndicator tenureHealthIndicator(
      Tenure tenure, TenureProperties properties, ObjectProvider<TenureNodeLifecycle> lifecycle) {
    return new TenureHealthIndicator(
        tenure,
        () -> Optional.ofNullable(lifecycle.getIfAvailable()).flatMap(TenureNodeLifecycle::node),
        properties.getNode().isEnabled());
  }
}
