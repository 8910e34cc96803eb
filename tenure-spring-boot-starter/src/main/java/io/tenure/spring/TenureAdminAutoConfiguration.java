package io.tenure.spring;

import io.tenure.Tenure;
import io.tenure.server.AdminServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * tenure-server's admin API and console for this node, with {@code tenure.admin.enabled=true} and
 * {@code io.tenure:tenure-server} on the class path: on a port of its own, or with {@code
 * tenure.admin.on-management-port=true} under a path of the management server ({@link
 * TenureAdminManagementConfiguration} mounts it there).
 */
@AutoConfiguration(after = TenureAutoConfiguration.class)
@ConditionalOnClass(AdminServer.class)
@ConditionalOnBean(Tenure.class)
@ConditionalOnProperty(prefix = "tenure.admin", name = "enabled", havingValue = "true")
public final class TenureAdminAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean({TenureAdminServer.class, TenureManagementAdmin.class})
  @ConditionalOnProperty(
      prefix = "tenure.admin",
      name = "on-management-port",
      havingValue = "false",
      matchIfMissing = true)
  TenureAdminServer tenureAdminServer(Tenure tenure, TenureProperties properties) {
    return new TenureAdminServer(tenure, properties.getAdmin());
  }

  @Bean
  @ConditionalOnMissingBean({TenureAdminServer.class, TenureManagementAdmin.class})
  @ConditionalOnProperty(prefix = "tenure.admin", name = "on-management-port", havingValue = "true")
  TenureManagementAdmin tenureManagementAdmin(
      Tenure tenure, TenureProperties properties, Environment environment) {
    return new TenureManagementAdmin(tenure, properties.getAdmin(), environment);
  }
}
