package io.tenure.spring;

import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.server.AdminServer;
import java.io.IOException;
import java.net.InetAddress;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

/**
 * tenure-server's admin API, console, {@code /health/*} and {@code /metrics} under {@code
 * tenure.admin.path} on the management server ({@code tenure.admin.on-management-port=true}):
 * {@link TenureAdminManagementConfiguration} registers the servlet that hands each request to it.
 *
 * <p>The admin server's own checks stay: a request must name the management server's address (with
 * the port it arrived on), a loopback name when that address is loopback, or an allowed name; and
 * beyond loopback every {@code /api} call carries the token. Spring Security, if the application
 * has it, applies on top.
 */
public final class TenureManagementAdmin implements SmartLifecycle, AdminEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(TenureManagementAdmin.class);

  private final AdminServer server;
  private final TenureAdminProperties properties;
  private final Environment environment;
  private final String address;
  private volatile @Nullable String contextPath;
  private volatile boolean running;

  /**
   * Checks the settings at once: host and port are not for this mode, and beyond loopback a token
   * is required.
   *
   * @throws IllegalStateException naming the property
   */
  TenureManagementAdmin(Tenure tenure, TenureAdminProperties properties, Environment environment) {
    this.properties = properties;
    this.environment = environment;
    if (!properties.getHost().equals("127.0.0.1") || properties.getPort() != 0) {
      throw new IllegalStateException(
          "tenure.admin.host and tenure.admin.port do not apply with"
              + " tenure.admin.on-management-port=true: the admin API is served on the management"
              + " server's address and port (management.server.address, management.server.port);"
              + " remove them");
    }
    this.address = managementAddress(environment);
    try {
      AdminServer.checkBinding(address, 0, properties.getToken(), properties.getAllowedHosts());
      this.server =
          AdminServer.builder(tenure.store())
              .bind(address, 0)
              .token(properties.getToken())
              .allowedHosts(properties.getAllowedHosts())
              .build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException(
          "tenure.admin ("
              + properties
              + ", management server on "
              + address
              + "): "
              + e.getMessage()
                  .replace("(--http-token or TENURE_HTTP_TOKEN)", "(tenure.admin.token)"));
    }
  }

  /**
   * The address the management server listens on: its own when it has a port of its own, else the
   * application's; every interface when none is set.
   */
  static String managementAddress(Environment environment) {
    // As Spring Boot decides it (ManagementPortType): a port of its own unless none is set or it
    // is the application's; 0 is always a port of its own, chosen when it starts.
    Integer managementPort = environment.getProperty("management.server.port", Integer.class);
    Integer serverPort = environment.getProperty("server.port", Integer.class, 8080);
    boolean own =
        managementPort != null && (managementPort == 0 || !managementPort.equals(serverPort));
    String address =
        environment.getProperty(own ? "management.server.address" : "server.address", "");
    return address.isBlank() ? "0.0.0.0" : address.trim();
  }

  /** Called once the servlet is in place, with its context path (the servlet's own is below it). */
  void mounted(String contextPath) {
    this.contextPath = contextPath;
  }

  /** The server the servlet hands requests to. */
  AdminServer server() {
    return server;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    if (contextPath == null) {
      throw new IllegalStateException(
          "tenure.admin.on-management-port=true needs a servlet web application with actuator"
              + " (spring-boot-starter-webmvc or -web and spring-boot-starter-actuator), and found no"
              + " management server to serve on; add them, or serve on a port of its own"
              + " (tenure.admin.on-management-port=false)");
    }
    server.startMounted();
    running = true;
    LOG.info("Tenure admin API and console on the management server at {}/", advertisedUrl());
  }

  @Override
  public synchronized void stop() {
    if (running) {
      running = false;
      server.close();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Starts before the node (which advertises its URL) and stops after it has left. */
  @Override
  public int getPhase() {
    return TenureNodeLifecycle.PHASE - 1;
  }

  /**
   * @return where the console is, without a trailing slash, e.g. {@code
   *     http://app-3.internal:8081/tenure}; the management server has started by then
   * @throws IllegalStateException if the management server's port is not known yet
   */
  @Override
  public String advertisedUrl() {
    String port = environment.getProperty("local.management.port");
    if (port == null) {
      throw new IllegalStateException("the management server has not started yet");
    }
    String host = address;
    if (host.equals("0.0.0.0") || host.equals("::")) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "127.0.0.1";
      }
    } else if (host.contains(":")) {
      host = "[" + host + "]";
    }
    String context = contextPath == null ? "" : contextPath;
    return "http://" + host + ":" + port + context + properties.getPath();
  }

  @Override
  public void attach(TenureNode node) {
    server.attach(node);
  }
}
