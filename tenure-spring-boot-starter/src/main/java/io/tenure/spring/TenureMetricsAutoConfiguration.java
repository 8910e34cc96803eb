package io.tenure.spring;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.tenure.Tenure;
import io.tenure.Ticker;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Tenure's meters on the application's registries, when Micrometer is on the class path: Spring
 * Boot binds every {@link MeterBinder} bean to each registry it configures.
 */
@AutoConfiguration(after = TenureAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(Tenure.class)
public final class TenureMetricsAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  TenureMeterBinder tenureMeterBinder(
      Tenure tenure, TenureQueues queues, ObjectProvider<TenureNodeLifecycle> lifecycle) {
    return new TenureMeterBinder(
        tenure,
        queues,
        () -> Optional.ofNullable(lifecycle.getIfAvailable()).flatMap(TenureNodeLifecycle::node),
        Ticker.system(),
        TenureMeterBinder.STORE_READ_MAX_AGE);
  }
}
