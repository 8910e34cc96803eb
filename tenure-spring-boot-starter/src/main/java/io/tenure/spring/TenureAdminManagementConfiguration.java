package io.tenure.spring;

import io.tenure.server.AdminServer;
import jakarta.servlet.Servlet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * Mounts {@link TenureManagementAdmin} under {@code tenure.admin.path} on the management server:
 * Spring Boot loads this into the management context, the child context of the management port when
 * it has one, else the application's own.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnClass({Servlet.class, AdminServer.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "tenure.admin", name = "enabled", havingValue = "true")
public final class TenureAdminManagementConfiguration {
  @Bean
  @ConditionalOnProperty(prefix = "tenure.admin", name = "on-management-port", havingValue = "true")
  ServletRegistrationBean<AdminServlet> tenureAdminServlet(
      ObjectProvider<TenureManagementAdmin> admin, TenureProperties properties) {
    TenureManagementAdmin mounted = admin.getIfAvailable();
    String path = properties.getAdmin().getPath();
    ServletRegistrationBean<AdminServlet> registration =
        new ServletRegistrationBean<>(new AdminServlet(mounted), path, path + "/*");
    registration.setName("tenureAdmin");
    // Its init reports the context path, which the node's advertised address needs at start.
    registration.setLoadOnStartup(1);
    // Without a Tenure (no store configured) there is nothing to serve.
    registration.setEnabled(mounted != null);
    return registration;
  }
}
