package io.tenure.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Every path the admin server answers, as one table tried in order (docs/ADMIN-API.md documents
 * each row; a test holds the two together). Dispatch, the 404 and 405 answers and what a call must
 * carry all come from it: a path no row takes is 404, a path some row takes with another method is
 * 405.
 *
 * <p>The API (paths under {@code /api/}) and the rest never share a path: a row under {@code /api/}
 * takes only API paths, any other row only the others, so the console's files ({@code /**}) cannot
 * answer for a mistyped API path.
 */
final class RouteTable {
  private static final int MAX_LIMIT = 10_000;

  /** The standard routes, before any an embedding process adds. */
  static final List<Route> STANDARD =
      List.of(
          Route.get("/api/cluster", (api, request, path) -> api.reads().cluster()),
          Route.get("/api/agents", (api, request, path) -> api.reads().agents()),
          Route.get("/api/locks", (api, request, path) -> api.reads().locks()),
          Route.get("/api/schedules", (api, request, path) -> api.reads().schedules()),
          Route.post(
              "/api/schedules/{name}/pause",
              (api, request, path) -> api.actions().schedule(path.get("name"), "pause")),
          Route.post(
              "/api/schedules/{name}/resume",
              (api, request, path) -> api.actions().schedule(path.get("name"), "resume")),
          Route.post(
              "/api/schedules/{name}/trigger",
              (api, request, path) -> api.actions().schedule(path.get("name"), "trigger")),
          Route.post(
              "/api/schedules/{name}/delete",
              (api, request, path) -> api.actions().schedule(path.get("name"), "delete")),
          Route.get(
              "/api/queues", (api, request, path) -> api.reads().queues(request.authorization())),
          Route.get(
              "/api/queues/{name}/control",
              (api, request, path) -> api.controls().read(path.get("name"))),
          Route.post(
              "/api/queues/{name}/pause",
              (api, request, path) -> api.controls().pause(path.get("name"), true)),
          Route.post(
              "/api/queues/{name}/resume",
              (api, request, path) -> api.controls().pause(path.get("name"), false)),
          Route.post(
              "/api/queues/{name}/limits",
              (api, request, path) -> api.controls().limit(path.get("name"), request)),
          Route.get(
              "/api/queues/{name}/messages",
              (api, request, path) ->
                  api.reads()
                      .messages(
                          api.knownQueue(path.get("name")),
                          request,
                          request.intParameter("limit", 50, 1, MAX_LIMIT))),
          Route.get(
              "/api/queues/{name}/dead",
              (api, request, path) ->
                  api.reads()
                      .deadLetters(
                          api.knownQueue(path.get("name")),
                          request.intParameter("limit", 50, 1, MAX_LIMIT))),
          Route.get(
              "/api/messages/{id}",
              (api, request, path) -> api.reads().message(AdminApi.id(path.get("id")))),
          Route.post(
              "/api/messages/{id}/cancel",
              (api, request, path) -> api.messages().cancel(AdminApi.id(path.get("id")))),
          Route.post(
              "/api/messages/{id}/delete",
              (api, request, path) -> api.messages().delete(AdminApi.id(path.get("id")))),
          Route.post(
              "/api/messages/{id}/run-now",
              (api, request, path) -> api.messages().runNow(AdminApi.id(path.get("id")))),
          Route.post(
              "/api/messages/{id}/retry",
              (api, request, path) -> api.messages().retry(AdminApi.id(path.get("id")))),
          Route.get(
              "/api/events",
              (api, request, path) ->
                  api.reads().events(request.intParameter("limit", 100, 1, MAX_LIMIT))),
          Route.post(
              "/api/queues/{name}/dead/{id}/replay",
              (api, request, path) ->
                  api.actions()
                      .replayOne(api.knownQueue(path.get("name")), AdminApi.id(path.get("id")))),
          Route.post(
              "/api/queues/{name}/dead/replay",
              (api, request, path) ->
                  api.actions().replayOrPurgeAll(api.knownQueue(path.get("name")), request, true)),
          Route.post(
              "/api/queues/{name}/dead/purge",
              (api, request, path) ->
                  api.actions().replayOrPurgeAll(api.knownQueue(path.get("name")), request, false)),
          Route.post(
              "/api/agents/pause", (api, request, path) -> api.actions().pause(request, true)),
          Route.post(
              "/api/agents/resume", (api, request, path) -> api.actions().pause(request, false)),
          Route.post("/api/agents/pin", (api, request, path) -> api.actions().pin(request)),
          Route.post(
              "/api/agents/rebalance", (api, request, path) -> api.actions().rebalance(request)),
          // Probes and scrapers use whatever method they like; HEAD gets the status alone.
          any("/health/live", false, (exchange, path, api) -> Health.live(exchange)),
          any(
              "/health/ready",
              false,
              (exchange, path, api) -> Health.ready(exchange, api.store(), api.node())),
          any("/metrics", true, (exchange, path, api) -> api.metrics().scrape(exchange)),
          new Route(
              Set.of("GET", "HEAD"),
              PathPattern.parse("/**"),
              false,
              false,
              (Route.Raw) (exchange, path, api) -> ConsoleFiles.serve(exchange, path)));

  private final List<Route> routes;

  /**
   * @param extra an embedding process's routes by prefix, each taking the prefix and every path
   *     under it, with any method, after the standard ones
   */
  RouteTable(Map<String, AdminRoute> extra) {
    List<Route> all = new ArrayList<>(STANDARD);
    extra.forEach(
        (prefix, route) ->
            all.add(
                new Route(
                    Set.of(),
                    PathPattern.parse(prefix + "/**"),
                    true,
                    true,
                    (Route.Api) (api, request, path) -> route.handle(request))));
    this.routes = List.copyOf(all);
  }

  List<Route> routes() {
    return routes;
  }

  /**
   * What the table says of one call.
   *
   * @param route the row that answers it, or null for a 404 or 405
   * @param segments the path's placeholders, raw
   * @param known whether some row takes the path with another method (405 rather than 404)
   * @param token whether a server with a token requires it
   * @param write whether it must pass the cross-site checks, and its body is read
   */
  record Match(
      @Nullable Route route,
      Map<String, String> segments,
      boolean known,
      boolean token,
      boolean write) {}

  /**
   * Finds the row for {@code method} on {@code path}. Where no row answers, the call is held to the
   * rules of its part of the server: every call into the API needs the token and every POST into it
   * passes the cross-site checks, so a caller without them learns nothing about which paths exist.
   */
  Match match(String method, String path) {
    boolean api = Route.isApi(path);
    boolean known = false;
    boolean token = false;
    for (Route route : routes) {
      if (Route.isApi(route.path().text()) != api) {
        continue;
      }
      Optional<Map<String, String>> segments = route.path().match(path);
      if (segments.isEmpty()) {
        continue;
      }
      if (route.takes(method)) {
        return new Match(
            route, segments.get(), true, route.token(), route.write() && method.equals("POST"));
      }
      known = true;
      token |= route.token();
    }
    return new Match(null, Map.of(), known, token || api, api && method.equals("POST"));
  }

  private static Route any(String path, boolean token, Route.Raw handler) {
    return new Route(Set.of(), PathPattern.parse(path), token, false, handler);
  }
}
