package io.tenure.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a request must pass before any route sees it (docs/ADMIN-API.md#access), and the headers
 * every response carries.
 *
 * <p>The name check is the defence against DNS rebinding: a page on {@code evil.example} whose name
 * is re-pointed at 127.0.0.1 talks to a loopback port as its own origin, so Origin checks pass;
 * only the Host header still names the attacker. So a request must name this server: the address it
 * is bound to (with its port), the loopback names when bound to loopback, or a name the operator
 * allowed.
 */
final class RequestGuard {
  private static final Logger LOG = LoggerFactory.getLogger(RequestGuard.class);

  /** The console loads its own script, style and icon and talks to its own origin: nothing else. */
  static final String CONSOLE_POLICY =
      "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  /** JSON, metrics and files are never documents that need to load anything. */
  static final String DATA_POLICY =
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

  private static final List<String> LOOPBACK_NAMES =
      List.of("localhost", "127.0.0.1", "[0:0:0:0:0:0:0:1]");
  private static final int SHOWN_HOST = 100;

  /** Names (normalized by {@link #name}) that must come with the bound port. */
  private final Set<String> boundNames;

  /** Allowed names, matched with any port. */
  private final Set<String> anyPort;

  /** Allowed {@code name:port} pairs. */
  private final Set<String> exact;

  private final @Nullable String token;
  private volatile int port = -1;

  /**
   * Serving through another HTTP server ({@link AdminServer#handle}): the bound names come with the
   * port each request arrived on, since that server, not this one, chose it.
   */
  private volatile boolean mounted;

  /**
   * @param bindHost the address the server binds
   * @param allowed extra names, each {@code NAME} (any port) or {@code NAME:PORT}
   * @param token the bearer token, or null for none
   */
  RequestGuard(String bindHost, Collection<String> allowed, @Nullable String token) {
    this.boundNames = boundNames(bindHost);
    Set<String> anyPort = new HashSet<>();
    Set<String> exact = new HashSet<>();
    for (String entry : allowed) {
      Authority authority = Authority.parse(entry);
      if (authority.port() < 0) {
        anyPort.add(authority.name());
      } else {
        exact.add(authority.name() + ":" + authority.port());
      }
    }
    this.anyPort = Set.copyOf(anyPort);
    this.exact = Set.copyOf(exact);
    this.token = token;
  }

  /**
   * Checks an entry of {@code allowedHosts} or {@code --http-allowed-host}.
   *
   * @throws IllegalArgumentException naming it, if it is not {@code NAME} or {@code NAME:PORT}
   */
  static String checkAllowedHost(String entry) {
    if (entry == null || entry.isBlank()) {
      throw new IllegalArgumentException("an allowed host must not be blank");
    }
    Authority.parse(entry.trim());
    return entry.trim();
  }

  /** The port the server got, once started (a name with another port is refused). */
  void started(int port) {
    this.port = port;
  }

  /** Requests come through another server: see {@link #mounted}. */
  void mounted() {
    this.mounted = true;
  }

  /**
   * Refuses a request that does not name this server.
   *
   * @throws AdminException 400 without exactly one Host on HTTP/1.1, 421 for a name not served
   */
  void checkHost(HttpExchange exchange) {
    URI target = exchange.getRequestURI();
    List<String> hosts = exchange.getRequestHeaders().getOrDefault("Host", List.of());
    String named;
    if (target.getRawAuthority() != null) {
      named = target.getRawAuthority(); // an absolute-form target overrides Host (RFC 9112 3.2.2)
    } else if (hosts.size() > 1) {
      throw AdminException.badRequest(
          "a request must carry one Host header, this one has " + hosts.size());
    } else if (hosts.isEmpty()) {
      if (exchange.getProtocol().equalsIgnoreCase("HTTP/1.0")) {
        return; // no browser sends that, and a client that can omit Host can write any Host
      }
      throw AdminException.badRequest("a request must carry a Host header naming this server");
    } else {
      named = hosts.get(0).trim();
    }
    int served = mounted ? exchange.getLocalAddress().getPort() : port;
    if (!serves(named, served)) {
      String shown = named.length() > SHOWN_HOST ? named.substring(0, SHOWN_HOST) + "..." : named;
      LOG.debug(
          "refused a request for host '{}': this server answers to {} with port {}, and {} {}",
          shown,
          boundNames,
          served,
          anyPort,
          exact);
      throw new AdminException(
          421,
          "this server does not answer to the name '"
              + shown
              + "' (a page on another"
              + " name, e.g. after DNS rebinding, must not reach it); use the address it is bound to, or allow the"
              + " name with --http-allowed-host / AdminServer.Builder.allowedHosts");
    }
  }

  private boolean serves(String named, int port) {
    Authority authority;
    try {
      authority = Authority.parse(named);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int requestPort = authority.port() < 0 ? 80 : authority.port();
    return boundNames.contains(authority.name()) && requestPort == port
        || anyPort.contains(authority.name())
        || exact.contains(authority.name() + ":" + requestPort);
  }

  /**
   * Whether a call to {@code path} needs the token: everything but health and the console's files.
   */
  static boolean needsToken(String path) {
    return path.startsWith("/api/") || path.equals("/metrics");
  }

  /**
   * Refuses a call without the token, when the server has one.
   *
   * @throws AdminException 401
   */
  void authorize(HttpExchange exchange) {
    if (token == null) {
      return;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    String expected = "Bearer " + token;
    if (header == null
        || !MessageDigest.isEqual(
            header.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8))) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"tenure\"");
      throw new AdminException(
          401,
          header == null
              ? "this server has a token: every /api call and /metrics needs 'Authorization: Bearer TOKEN' (the node's --http-token)"
              : "wrong bearer token; use the node's --http-token");
    }
  }

  /**
   * A page the operator has open elsewhere can send a "simple" cross-site POST to a loopback server
   * without a preflight. So a change must declare JSON (a cross-site page cannot without a
   * preflight the server never answers) and, when the browser names an origin, come from this
   * server's own (the Host was checked first, so a rebinding page's matching Origin is refused).
   *
   * @throws AdminException 415 or 403
   */
  static void refuseCrossSite(HttpExchange exchange) {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new AdminException(415, "send changes with 'Content-Type: application/json'");
    }
    String origin = exchange.getRequestHeaders().getFirst("Origin");
    String host = exchange.getRequestHeaders().getFirst("Host");
    if (origin != null && (host == null || !origin.equalsIgnoreCase("http://" + host))) {
      throw new AdminException(
          403, "cross-site request refused: origin " + origin + " is not this server");
    }
  }

  /** Sets the headers every response carries: no framing, no sniffing, no foreign content. */
  static void secure(Headers headers, String contentType) {
    headers.set("Content-Type", contentType);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("X-Frame-Options", "DENY");
    headers.set(
        "Content-Security-Policy",
        contentType.startsWith("text/html") ? CONSOLE_POLICY : DATA_POLICY);
    headers.set("Referrer-Policy", "no-referrer");
  }

  /** The names the bind address answers to, normalized. */
  private static Set<String> boundNames(String bindHost) {
    Set<String> names = new HashSet<>();
    InetAddress bound;
    try {
      bound = InetAddress.getByName(bindHost);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "admin host '" + bindHost + "' is not an address of this machine", e);
    }
    if (!bound.isAnyLocalAddress()) {
      names.add(literal(bound));
      try {
        names.add(
            Authority.parse(
                    bindHost.contains(":") && !bindHost.startsWith("[")
                        ? "[" + bindHost + "]"
                        : bindHost)
                .name());
      } catch (IllegalArgumentException e) {
        // a name no browser can write (e.g. with an underscore): its address stands for it
      }
    }
    if (bound.isLoopbackAddress()) {
      names.addAll(LOOPBACK_NAMES);
    }
    if (bound.isAnyLocalAddress()) {
      // Every interface: each of its addresses, the loopback names and the machine's names
      // (what advertisedUrl() publishes, and what other nodes forward to).
      names.addAll(LOOPBACK_NAMES);
      try {
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
          Collections.list(network.getInetAddresses()).forEach(a -> names.add(literal(a)));
        }
      } catch (IOException e) {
        LOG.warn(
            "could not list this machine's addresses; only the loopback and host names are served: {}",
            e.toString());
      }
      try {
        InetAddress local = InetAddress.getLocalHost();
        names.add(local.getHostName().toLowerCase(Locale.ROOT));
        names.add(local.getCanonicalHostName().toLowerCase(Locale.ROOT));
      } catch (IOException e) {
        LOG.warn("could not read this machine's host name: {}", e.toString());
      }
    }
    return Set.copyOf(names);
  }

  /**
   * An address as a Host header writes it: dotted IPv4, bracketed full-form IPv6 without a zone.
   */
  private static String literal(InetAddress address) {
    if (address instanceof Inet6Address) {
      String text = address.getHostAddress();
      int zone = text.indexOf('%');
      return "[" + (zone < 0 ? text : text.substring(0, zone)) + "]";
    }
    return address.getHostAddress();
  }

  /**
   * A Host value split into a normalized name and a port (-1 when absent). IPv6 literals are
   * rewritten in full form so {@code [::1]} and {@code [0:0:0:0:0:0:0:1]} are the same name; names
   * compare in lower case.
   */
  record Authority(String name, int port) {
    static Authority parse(String text) {
      String name;
      String rest;
      if (text.startsWith("[")) {
        int close = text.indexOf(']');
        if (close < 0) {
          throw new IllegalArgumentException(
              "'" + text + "' opens an IPv6 address with [ but does not close it");
        }
        String inside = text.substring(1, close);
        if (!inside.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
          throw new IllegalArgumentException("'" + text + "' is not an IPv6 address in brackets");
        }
        try {
          // In brackets the JDK parses a literal and never asks DNS: a request's Host is never
          // looked up.
          name = literal(InetAddress.getByName("[" + inside + "]"));
        } catch (IOException e) {
          throw new IllegalArgumentException(
              "'" + text + "' is not an IPv6 address in brackets", e);
        }
        rest = text.substring(close + 1);
      } else {
        int colon = text.indexOf(':');
        name = (colon < 0 ? text : text.substring(0, colon)).toLowerCase(Locale.ROOT);
        rest = colon < 0 ? "" : text.substring(colon);
        if (!name.matches("[a-z0-9]([a-z0-9.-]*[a-z0-9])?")) {
          throw new IllegalArgumentException(
              "'"
                  + text
                  + "' is not a host name or address, e.g. tenure.internal or"
                  + " tenure.internal:8081");
        }
      }
      if (rest.isEmpty()) {
        return new Authority(name, -1);
      }
      if (!rest.matches(":\\d{1,5}") || Integer.parseInt(rest.substring(1)) > 65_535) {
        throw new IllegalArgumentException(
            "'" + text + "' has no valid port after the name (1 to 65535)");
      }
      return new Authority(name, Integer.parseInt(rest.substring(1)));
    }
  }
}
