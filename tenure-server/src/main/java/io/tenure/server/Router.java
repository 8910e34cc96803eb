package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import io.tenure.StoreUnavailableException;
import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one request: the guard's checks in the documented order (docs/ADMIN-API.md#access), then
 * the {@link RouteTable}'s row, and every failure as a JSON error with its status.
 */
final class Router {
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);

  private final RequestGuard guard;
  private final RouteTable table;
  private final Supplier<AdminApi> api;

  /**
   * @param api what the handlers serve from, read per call: it changes when the server is attached
   *     to its node
   */
  Router(RequestGuard guard, RouteTable table, Supplier<AdminApi> api) {
    this.guard = guard;
    this.table = table;
    this.api = api;
  }

  void serve(HttpExchange exchange) {
    try (exchange) {
      String method = exchange.getRequestMethod();
      // Doubled slashes route as one: "$address/" + "/metrics" still finds /metrics.
      String path = exchange.getRequestURI().getRawPath().replaceAll("/{2,}", "/");
      try {
        guard.checkHost(exchange);
        dispatch(exchange, method, path);
      } catch (AdminException e) {
        Exchanges.error(exchange, e.status(), e.getMessage());
      } catch (StoreUnavailableException e) {
        Exchanges.error(exchange, 503, "the store is unreachable: " + e.getMessage());
      } catch (IllegalArgumentException e) {
        Exchanges.error(exchange, 400, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("admin {} {} failed", method, path, e);
        Exchanges.error(exchange, 500, "internal error: " + e);
      }
    } catch (IOException e) {
      LOG.debug("admin response not sent: {}", e.toString());
    }
  }

  private void dispatch(HttpExchange exchange, String method, String path) throws IOException {
    RouteTable.Match match = table.match(method, path);
    if (match.token()) {
      guard.authorize(exchange);
    }
    String body = "";
    if (match.write()) {
      RequestGuard.refuseCrossSite(exchange);
      body = Exchanges.body(exchange, AdminServer.MAX_BODY_BYTES);
    }
    Route route = match.route();
    if (route == null) {
      if (match.known()) {
        throw new AdminException(405, method + " is not allowed on " + path);
      }
      throw AdminException.notFound("no such path: " + path + " (see docs/ADMIN-API.md)");
    }
    AdminApi current = api.get();
    switch (route.handler()) {
      case Route.Api handler ->
          Exchanges.json(
              exchange,
              200,
              handler.answer(current, request(exchange, method, path, body), match.segments()));
      case Route.Raw handler -> handler.serve(exchange, path, current);
    }
  }

  private static AdminRequest request(
      HttpExchange exchange, String method, String path, String body) {
    return new AdminRequest(
        method,
        path,
        Exchanges.query(exchange),
        body,
        exchange.getRequestHeaders().getFirst("Authorization"),
        exchange.getRequestHeaders().getFirst(Peers.FORWARDED) != null);
  }
}
