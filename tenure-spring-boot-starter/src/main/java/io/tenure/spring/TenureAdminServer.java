package io.tenure.spring;

import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.server.AdminServer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * tenure-server's admin HTTP API, console, {@code /health/*} and {@code /metrics} for this
 * application's node (docs/ADMIN-API.md), on a port of its own ({@code tenure.admin.*}). It starts
 * just before the node, so that the node advertises the port it is bound to, and stops just after
 * the node has left. Its {@code /metrics} serves a Prometheus registry of its own; the
 * application's registry gets {@link TenureMeterBinder}'s meters.
 */
public final class TenureAdminServer implements SmartLifecycle, AdminEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(TenureAdminServer.class);

  private final Tenure tenure;
  private final TenureAdminProperties properties;
  private volatile @Nullable AdminServer server;

  /**
   * Checks the binding at once (a host beyond loopback without a token, a port in use).
   *
   * @throws IllegalArgumentException or IllegalStateException naming the property
   */
  TenureAdminServer(Tenure tenure, TenureAdminProperties properties) {
    this.tenure = tenure;
    this.properties = properties;
    try {
      AdminServer.checkBinding(
          properties.getHost(),
          properties.getPort(),
          properties.getToken(),
          properties.getAllowedHosts());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("tenure.admin (" + properties + "): " + e.getMessage());
    }
  }

  @Override
  public synchronized void start() {
    if (server != null) {
      return;
    }
    server =
        AdminServer.builder(tenure.store())
            .bind(properties.getHost(), properties.getPort())
            .token(properties.getToken())
            .allowedHosts(properties.getAllowedHosts())
            .build()
            .start();
    LOG.info("Tenure admin API and console on {}", server.url());
  }

  @Override
  public synchronized void stop() {
    AdminServer running = server;
    if (running != null) {
      server = null;
      running.close();
    }
  }

  @Override
  public boolean isRunning() {
    return server != null;
  }

  /** Starts before the node (which advertises its URL) and stops after it has left. */
  @Override
  public int getPhase() {
    return TenureNodeLifecycle.PHASE - 1;
  }

  /**
   * @return where a browser on this machine reaches the console, e.g. {@code http://127.0.0.1:8081}
   * @throws IllegalStateException if it is not running
   */
  public String url() {
    return running().url();
  }

  /**
   * @return the port it listens on
   * @throws IllegalStateException if it is not running
   */
  public int port() {
    return running().port();
  }

  @Override
  public String advertisedUrl() {
    return running().advertisedUrl();
  }

  @Override
  public void attach(TenureNode node) {
    running().attach(node);
  }

  private AdminServer running() {
    AdminServer running = server;
    if (running == null) {
      throw new IllegalStateException("the Tenure admin server is not running");
    }
    return running;
  }
}
