package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.StoreUnavailableException;
import io.tenure.TenureNode;
import io.tenure.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's admin HTTP endpoint (SPEC §8.4, docs/ADMIN-API.md): the JSON admin API, the web console,
 * health checks and Prometheus metrics, on the JDK's built-in HTTP server with a virtual thread
 * per request.
 *
 * <p>Bound to loopback by default. Bound anywhere else it needs a bearer token, which every
 * mutating call ({@code POST}) must carry; reads need none.
 */
public final class AdminServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
  /** Request bodies are small JSON objects; anything larger is refused unread. */
  static final int MAX_BODY_BYTES = 64 * 1024;
  private static final String CONSOLE = "/io/tenure/server/console/";

  private final Store store;
  private volatile @Nullable TenureNode node;
  private final String host;
  private final int requestedPort;
  private final @Nullable String token;
  private final Map<String, AdminRoute> routes;
  private final PrometheusMeterRegistry registry;
  private final TenureMetrics metrics;
  private volatile AdminApi api;
  private @Nullable HttpServer server;
  private @Nullable ExecutorService executor;

  private AdminServer(Builder builder) {
    this.store = java.util.Objects.requireNonNull(builder.store);
    this.node = builder.node;
    this.host = builder.host;
    this.requestedPort = builder.port;
    this.token = builder.token;
    this.routes = Map.copyOf(builder.routes);
    this.registry = builder.registry != null ? builder.registry : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.metrics = new TenureMetrics(store, node, registry);
    this.api = new AdminApi(store, node);
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
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), requestedPort), 64);
    } catch (BindException e) {
      throw new IllegalStateException("cannot listen on " + host + ":" + requestedPort
          + ": the port is in use (choose another with --http, or 0 for any free port)", e);
    } catch (IOException e) {
      throw new IllegalStateException("cannot listen on " + host + ":" + requestedPort + ": " + e.getMessage(), e);
    }
    executor = Executors.newVirtualThreadPerTaskExecutor();
    http.setExecutor(executor);
    http.createContext("/", this::serve);
    http.start();
    server = http;
    LOG.info("admin API and console on {}", url());
    return this;
  }

  /**
   * Makes this the admin endpoint of {@code node}, for a server started before its node was built
   * (so the node could advertise the server's port): node fields, agent actions and node meters.
   *
   * @throws IllegalStateException if it already has a node
   */
  public synchronized void attach(TenureNode node) {
    if (this.node != null) {
      throw new IllegalStateException("the admin server already belongs to node " + this.node.nodeId());
    }
    this.node = node;
    this.api = new AdminApi(store, node);
    metrics.attach(node);
  }

  /**
   * Checks what {@link Builder#build()} and {@link #start()} would refuse, without a store: a host
   * that is not local, a non-loopback host without a token, a port in use.
   *
   * @throws IllegalArgumentException or IllegalStateException with a one-line reason
   */
  public static void checkBinding(String host, int port, @Nullable String token) {
    Builder check = new Builder(null).bind(host, port).token(token);
    check.checkToken();
    if (port != 0) {
      try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
        probe.setReuseAddress(true);
        probe.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      } catch (IOException e) {
        throw new IllegalStateException("cannot listen on " + host + ":" + port
            + ": the port is in use (choose another with --http, or 0 for any free port)", e);
      }
    }
  }

  /**
   * The URL other machines should use: {@link #url()}, unless bound to every interface, where the
   * machine's host name stands in for the wildcard.
   */
  public String advertisedUrl() {
    if (!host.equals("0.0.0.0") && !host.equals("::")) {
      return url();
    }
    try {
      return "http://" + InetAddress.getLocalHost().getHostName() + ":" + port() + "/";
    } catch (IOException e) {
      return url();
    }
  }

  /** The port it listens on (the chosen one when built with port 0). */
  public int port() {
    HttpServer http = server;
    if (http == null) {
      throw new IllegalStateException("the admin server is not started");
    }
    return http.getAddress().getPort();
  }

  /** Where a browser on this machine reaches the console, e.g. {@code http://127.0.0.1:8081/}. */
  public String url() {
    String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return "http://" + (shown.contains(":") ? "[" + shown + "]" : shown) + ":" + port() + "/";
  }

  /** The registry {@code /metrics} serves; callers may add their own meters. */
  public PrometheusMeterRegistry meterRegistry() {
    return registry;
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  private void serve(HttpExchange exchange) {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      try {
        if (path.startsWith("/api/")) {
          serveApi(exchange, method, path);
        } else if (path.equals("/health/live")) {
          send(exchange, 200, "application/json", Json.write(Map.of("status", "UP")));
        } else if (path.equals("/health/ready")) {
          ready(exchange);
        } else if (path.equals("/metrics")) {
          metrics.refresh();
          send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
        } else if (method.equals("GET") || method.equals("HEAD")) {
          serveConsole(exchange, path);
        } else {
          throw new AdminException(405, method + " is not allowed on " + path);
        }
      } catch (AdminException e) {
        error(exchange, e.status(), e.getMessage());
      } catch (StoreUnavailableException e) {
        error(exchange, 503, "the store is unreachable: " + e.getMessage());
      } catch (IllegalArgumentException e) {
        error(exchange, 400, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("admin {} {} failed", method, path, e);
        error(exchange, 500, "internal error: " + e);
      }
    } catch (IOException e) {
      LOG.debug("admin response not sent: {}", e.toString());
    }
  }

  private void serveApi(HttpExchange exchange, String method, String path) throws IOException {
    String body = "";
    if (method.equals("POST")) {
      authorize(exchange);
      refuseCrossSite(exchange);
      body = readBody(exchange);
    }
    AdminRequest request = new AdminRequest(method, path, query(exchange), body,
        exchange.getRequestHeaders().getFirst("Authorization"),
        exchange.getRequestHeaders().getFirst(Peers.FORWARDED) != null);
    Optional<Object> standard = api.handle(request);
    if (standard.isPresent()) {
      send(exchange, 200, "application/json", Json.write(standard.get()));
      return;
    }
    for (Map.Entry<String, AdminRoute> route : routes.entrySet()) {
      if (path.equals(route.getKey()) || path.startsWith(route.getKey() + "/")) {
        send(exchange, 200, "application/json", Json.write(route.getValue().handle(request)));
        return;
      }
    }
    if (AdminApi.known(path)) {
      throw new AdminException(405, method + " is not allowed on " + path);
    }
    throw AdminException.notFound("no such path: " + path + " (see docs/ADMIN-API.md)");
  }

  /** Refuses a mutating call without the token, when a token is required. */
  private void authorize(HttpExchange exchange) {
    if (token == null) {
      return;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    String expected = "Bearer " + token;
    if (header == null || !MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8),
        expected.getBytes(StandardCharsets.UTF_8))) {
      throw new AdminException(401, header == null
          ? "this call changes the cluster and needs 'Authorization: Bearer TOKEN' (the node's --http-token)"
          : "wrong bearer token; use the node's --http-token");
    }
  }

  /**
   * A page the operator has open elsewhere can send a "simple" cross-site POST to a loopback
   * server without a preflight, or read it after DNS rebinding. So a change must declare JSON (a
   * cross-site page cannot without a preflight the server never answers) and, when the browser
   * names an origin, come from this server's own.
   */
  private void refuseCrossSite(HttpExchange exchange) {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      throw new AdminException(415, "send changes with 'Content-Type: application/json'");
    }
    String origin = exchange.getRequestHeaders().getFirst("Origin");
    String host = exchange.getRequestHeaders().getFirst("Host");
    if (origin != null && (host == null || !origin.equalsIgnoreCase("http://" + host))) {
      throw new AdminException(403, "cross-site request refused: origin " + origin + " is not this server");
    }
  }

  private static String readBody(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        throw new AdminException(413, "request body over " + MAX_BODY_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> parameters = new LinkedHashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      parameters.put(name, value);
    }
    return parameters;
  }

  /** Ready: the store answers and, on a node, the node is ACTIVE and not self-fenced. */
  private void ready(HttpExchange exchange) throws IOException {
    String problem = null;
    try {
      store.now();
      if (node != null) {
        Optional<NodeInfo> self = store.membership().read().nodes().stream()
            .filter(n -> n.nodeId().equals(node.nodeId())).findFirst();
        if (node.isSelfFenced()) {
          problem = "self-fenced: no heartbeat succeeded in time";
        } else if (self.isEmpty() || self.get().status() != NodeStatus.ACTIVE) {
          problem = "node is " + self.map(n -> n.status().name()).orElse("not in the membership table");
        }
      }
    } catch (RuntimeException e) {
      problem = "the store is unreachable: " + e.getMessage();
    }
    if (problem == null) {
      send(exchange, 200, "application/json", Json.write(Map.of("status", "UP")));
    } else {
      send(exchange, 503, "application/json", Json.write(Map.of("status", "DOWN", "reason", problem)));
    }
  }

  private void serveConsole(HttpExchange exchange, String path) throws IOException {
    String file = path.equals("/") ? "index.html" : path.substring(1);
    if (!file.matches("[A-Za-z0-9_-]+\\.(html|js|css|svg|png|ico)")) {
      throw AdminException.notFound("no such page: " + path);
    }
    try (InputStream in = AdminServer.class.getResourceAsStream(CONSOLE + file)) {
      if (in == null) {
        throw AdminException.notFound("no such page: " + path);
      }
      byte[] bytes = in.readAllBytes();
      exchange.getResponseHeaders().set("Cache-Control", "no-cache");
      send(exchange, 200, contentType(file), bytes);
    }
  }

  private static String contentType(String file) {
    String extension = file.substring(file.lastIndexOf('.') + 1);
    return switch (extension) {
      case "html" -> "text/html; charset=utf-8";
      case "js" -> "text/javascript; charset=utf-8";
      case "css" -> "text/css; charset=utf-8";
      case "svg" -> "image/svg+xml";
      case "png" -> "image/png";
      default -> "image/x-icon";
    };
  }

  private static void error(HttpExchange exchange, int status, @Nullable String message) throws IOException {
    send(exchange, status, "application/json", Json.write(Map.of("error", message == null ? "error" : message)));
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Configures an {@link AdminServer}. */
  public static final class Builder {
    private final @Nullable Store store;
    private @Nullable TenureNode node;
    private String host = "127.0.0.1";
    private int port = 0;
    private @Nullable String token;
    private final Map<String, AdminRoute> routes = new LinkedHashMap<>();
    private @Nullable PrometheusMeterRegistry registry;

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

    /** The bearer token mutating calls must carry; null or blank for none (loopback only). */
    public Builder token(@Nullable String token) {
      this.token = token == null || token.isBlank() ? null : token;
      return this;
    }

    /** Extra paths, e.g. {@code /api/demo}: a route gets the path and every path under it. */
    public Builder route(String prefix, AdminRoute route) {
      if (prefix == null || !prefix.startsWith("/api/") || prefix.endsWith("/")) {
        throw new IllegalArgumentException("a route prefix must start with /api/ and not end with /, got " + prefix);
      }
      routes.put(prefix, route);
      return this;
    }

    /** The registry to serve on {@code /metrics} (and to register Tenure's meters on). */
    public Builder meterRegistry(PrometheusMeterRegistry registry) {
      this.registry = registry;
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
      if (token == null && !loopback(host)) {
        throw new IllegalArgumentException("the admin server is bound to " + host
            + ", beyond this machine: give it a token (--http-token or TENURE_HTTP_TOKEN) so only holders can change the cluster");
      }
    }

    private static boolean loopback(String host) {
      try {
        return InetAddress.getByName(host).isLoopbackAddress();
      } catch (IOException e) {
        throw new IllegalArgumentException("admin host '" + host + "' is not an address of this machine", e);
      }
    }
  }
}
