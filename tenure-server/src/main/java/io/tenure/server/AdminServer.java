package io.tenure.server;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tenure.TenureNode;
import io.tenure.spi.Store;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's admin HTTP endpoint (SPEC §8.4, docs/ADMIN-API.md): the JSON admin API, the web console,
 * health checks and Prometheus metrics, on the JDK's built-in HTTP server with a virtual thread per
 * request.
 *
 * <p>Bound to loopback by default. Bound anywhere else it needs a bearer token; with a token, every
 * {@code /api} call and {@code /metrics} must carry it (health checks and the console's files need
 * none). Every request must name this server in its Host header ({@link RequestGuard}).
 */
public final class AdminServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

  /** Request bodies are small JSON objects; anything larger is refused unread. */
  static final int MAX_BODY_BYTES = 64 * 1024;

  /** How often store-wide gauges are re-read when nothing scrapes them. */
  public static final Duration DEFAULT_METRICS_REFRESH = Duration.ofSeconds(5);

  private final Store store;
  private volatile @Nullable TenureNode node;
  private final String host;
  private final int requestedPort;
  private final RequestGuard guard;
  private final Router router;
  private final MeterRegistry registry;
  private final TenureMetrics metrics;
  private final MetricsEndpoint metricsEndpoint;
  private final Duration metricsRefresh;
  private final TenureMetrics.Schedule metricsSchedule;
  private volatile AdminApi api;
  private @Nullable HttpServer server;
  private @Nullable ExecutorService executor;
  private boolean mounted;

  private AdminServer(Builder builder) {
    this.store = java.util.Objects.requireNonNull(builder.store);
    this.node = builder.node;
    this.host = builder.host;
    this.requestedPort = builder.port;
    this.guard = new RequestGuard(host, builder.allowedHosts, builder.token);
    this.registry =
        builder.registry != null
            ? builder.registry
            : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.metrics = new TenureMetrics(store, node, registry);
    this.metricsEndpoint = new MetricsEndpoint(registry, metrics);
    this.metricsRefresh = builder.metricsRefresh;
    this.metricsSchedule = builder.metricsSchedule;
    this.api = AdminApi.of(store, node, metricsEndpoint);
    this.router = new Router(guard, new RouteTable(builder.routes), () -> api);
  }

  public static Builder builder(Store store) {
    if (store == null) {
      throw new IllegalArgumentException("store must not be null");
    }
    return new Builder(store);
  }

  /**
   * Starts serving.
   *
   * @throws IllegalStateException naming the address if the port is in use or cannot be bound
   */
  public synchronized AdminServer start() {
    if (server != null) {
      throw new IllegalStateException("the admin server is already started");
    }
    HttpServer http = AdminBinding.open(host, requestedPort);
    executor = Executors.newVirtualThreadPerTaskExecutor();
    http.setExecutor(executor);
    http.createContext("/", router::serve);
    http.start();
    server = http;
    guard.started(http.getAddress().getPort());
    metrics.refreshEvery(metricsRefresh, metricsSchedule);
    LOG.info("admin API and console on {}", url());
    return this;
  }

  /**
   * Starts serving through another HTTP server instead of a port of its own: that server passes
   * each request to {@link #handle}, with the path below the prefix it is mounted at (e.g. Spring
   * Boot's management server, {@code tenure.admin.on-management-port}). Every check stays: a
   * request must name the address given to {@link Builder#bind} (with the port it arrived on) or an
   * allowed name, and carry the token where one is set. The port given to {@code bind} is not used.
   *
   * @throws IllegalStateException if it is already started
   */
  public synchronized AdminServer startMounted() {
    if (server != null || mounted) {
      throw new IllegalStateException("the admin server is already started");
    }
    mounted = true;
    guard.mounted();
    metrics.refreshEvery(metricsRefresh, metricsSchedule);
    return this;
  }

  /**
   * Serves one request that another HTTP server received, once {@link #startMounted} ran: the
   * exchange's path is the one below the mount prefix ({@code /api/cluster}, {@code /} for the
   * console). The exchange is closed when it returns.
   *
   * @throws IllegalStateException if not started with {@link #startMounted}
   */
  public void handle(com.sun.net.httpserver.HttpExchange exchange) {
    if (!mounted) {
      throw new IllegalStateException("the admin server is not mounted (call startMounted())");
    }
    router.serve(exchange);
  }

  /**
   * Makes this the admin endpoint of {@code node}, for a server started before its node was built
   * (so the node could advertise the server's port): node fields, agent actions and node meters.
   *
   * @throws IllegalStateException if it already has a node
   */
  public synchronized void attach(TenureNode node) {
    if (this.node != null) {
      throw new IllegalStateException(
          "the admin server already belongs to node " + this.node.nodeId());
    }
    this.node = node;
    this.api = AdminApi.of(store, node, metricsEndpoint);
    metrics.attach(node);
  }

  /**
   * Checks what {@link Builder#build()} and {@link #start()} would refuse, without a store: a host
   * that is not local, a non-loopback host without a token, a port in use.
   *
   * @throws IllegalArgumentException or IllegalStateException with a one-line reason
   */
  public static void checkBinding(String host, int port, @Nullable String token) {
    checkBinding(host, port, token, List.of());
  }

  /**
   * Also checks the {@link Builder#allowedHosts allowed host names}.
   *
   * @throws IllegalArgumentException or IllegalStateException with a one-line reason
   */
  public static void checkBinding(
      String host, int port, @Nullable String token, Collection<String> allowedHosts) {
    Builder check = new Builder(null).bind(host, port).token(token).allowedHosts(allowedHosts);
    check.checkToken();
    if (port != 0) {
      AdminBinding.probe(host, port);
    }
  }

  /**
   * The URL other machines should use, without a trailing slash (so {@code $address/metrics}
   * works): {@link #url()}, unless bound to every interface, where the machine's host name stands
   * in for the wildcard.
   */
  public String advertisedUrl() {
    if (!host.equals("0.0.0.0") && !host.equals("::")) {
      return url();
    }
    try {
      return "http://" + InetAddress.getLocalHost().getHostName() + ":" + port();
    } catch (IOException e) {
      return url();
    }
  }

  /** The port it listens on (the chosen one when built with port 0). */
  public int port() {
    HttpServer http = server;
    if (http == null) {
      throw new IllegalStateException(
          mounted
              ? "the admin server is mounted on another server, which chose the port"
              : "the admin server is not started");
    }
    return http.getAddress().getPort();
  }

  /**
   * Where a browser on this machine reaches the console, without a trailing slash, e.g. {@code
   * http://127.0.0.1:8081}.
   */
  public String url() {
    String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return "http://" + (shown.contains(":") ? "[" + shown + "]" : shown) + ":" + port();
  }

  /**
   * The registry Tenure's meters are on (the one given to the builder, else the server's own
   * Prometheus one); callers may add their own meters.
   */
  public MeterRegistry meterRegistry() {
    return registry;
  }

  @Override
  public synchronized void close() {
    metrics.close();
    mounted = false;
    if (server != null) {
      server.stop(0);
      server = null;
    }
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  /** Configures an {@link AdminServer}. */
  public static final class Builder {
    private final @Nullable Store store;
    private @Nullable TenureNode node;
    private String host = "127.0.0.1";
    private int port = 0;
    private @Nullable String token;
    private final List<String> allowedHosts = new ArrayList<>();
    private final Map<String, AdminRoute> routes = new LinkedHashMap<>();
    private @Nullable MeterRegistry registry;
    private Duration metricsRefresh = DEFAULT_METRICS_REFRESH;
    private TenureMetrics.Schedule metricsSchedule = TenureMetrics.DAEMON;

    private Builder(@Nullable Store store) {
      this.store = store;
    }

    /** The node this server belongs to; without one it shows the store only (no agent actions). */
    public Builder node(TenureNode node) {
      this.node = node;
      return this;
    }

    /**
     * @param host an address of this machine, {@code 127.0.0.1} by default
     * @param port 0 to 65535; 0 picks a free port
     */
    public Builder bind(String host, int port) {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("admin host must not be blank");
      }
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("admin port must be 0 to 65535, got " + port);
      }
      this.host = host;
      this.port = port;
      return this;
    }

    /**
     * The bearer token every {@code /api} call and {@code /metrics} must then carry; null or blank
     * for none (loopback only).
     */
    public Builder token(@Nullable String token) {
      this.token = token == null || token.isBlank() ? null : token;
      return this;
    }

    /**
     * Names this server answers to besides the address it is bound to (and, bound to loopback,
     * {@code localhost}, {@code 127.0.0.1} and {@code [::1]}): e.g. the name a reverse proxy or a
     * tunnel forwards as Host. A request naming any other host gets 421.
     *
     * @param hosts each {@code NAME} (with any port) or {@code NAME:PORT}; IPv6 in brackets
     * @throws IllegalArgumentException naming an entry that is neither
     */
    public Builder allowedHosts(Collection<String> hosts) {
      if (hosts == null) {
        throw new IllegalArgumentException("allowed hosts must not be null");
      }
      List<String> checked = new ArrayList<>();
      hosts.forEach(h -> checked.add(RequestGuard.checkAllowedHost(h)));
      allowedHosts.addAll(checked);
      return this;
    }

    /** See {@link #allowedHosts(Collection)}. */
    public Builder allowedHosts(String... hosts) {
      return allowedHosts(hosts == null ? null : List.of(hosts));
    }

    /** Extra paths, e.g. {@code /api/demo}: a route gets the path and every path under it. */
    public Builder route(String prefix, AdminRoute route) {
      if (prefix == null || !prefix.startsWith("/api/") || prefix.endsWith("/")) {
        throw new IllegalArgumentException(
            "a route prefix must start with /api/ and not end with /, got " + prefix);
      }
      routes.put(prefix, route);
      return this;
    }

    /**
     * The registry to register Tenure's meters on: any Micrometer registry. {@code /metrics} serves
     * it when it is a Prometheus one (or a composite holding one), and answers 404 otherwise.
     */
    public Builder meterRegistry(MeterRegistry registry) {
      if (registry == null) {
        throw new IllegalArgumentException("the meter registry must not be null");
      }
      this.registry = registry;
      return this;
    }

    /**
     * How often store-wide gauges re-read the store while the server runs, so a registry nothing
     * scrapes (a push registry) sees current values; a scrape of {@code /metrics} also re-reads.
     *
     * @param every 100 ms to 1 hour; {@link #DEFAULT_METRICS_REFRESH} by default
     */
    public Builder metricsRefresh(Duration every) {
      if (every == null
          || every.compareTo(Duration.ofMillis(100)) < 0
          || every.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException("the metrics refresh must be 100ms to 1h, got " + every);
      }
      this.metricsRefresh = every;
      return this;
    }

    /** Tests: what runs the refresh, fired by hand instead of a timer. */
    Builder metricsSchedule(TenureMetrics.Schedule schedule) {
      this.metricsSchedule = schedule;
      return this;
    }

    /**
     * @throws IllegalArgumentException if bound beyond loopback without a token
     */
    public AdminServer build() {
      checkToken();
      if (store == null) {
        throw new IllegalStateException("no store");
      }
      return new AdminServer(this);
    }

    private void checkToken() {
      if (token == null && !AdminBinding.isLoopback(host)) {
        throw new IllegalArgumentException(
            "the admin server is bound to "
                + host
                + ", beyond this machine: give it a token (--http-token or TENURE_HTTP_TOKEN) so only holders can change the cluster");
      }
    }
  }
}
