package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * One row of the route table ({@link RouteTable}): which methods on which paths it takes, what a
 * call must carry, and what answers it.
 *
 * @param methods the methods it takes; empty for every method
 * @param path the paths it takes
 * @param token whether a server with a token requires it here (docs/ADMIN-API.md#access)
 * @param write whether its POSTs change things: they must then pass the cross-site checks, and
 *     their body is read
 * @param handler what answers
 */
record Route(Set<String> methods, PathPattern path, boolean token, boolean write, Handler handler) {
  /** The paths under this prefix are the JSON admin API; no other route takes them. */
  static final String API = "/api/";

  Route {
    methods = Set.copyOf(methods);
  }

  /** An API read: answered with the handler's JSON and 200. */
  static Route get(String path, Api handler) {
    return new Route(Set.of("GET"), PathPattern.parse(path), true, false, handler);
  }

  /** An API change: the cross-site checks first, then the handler's JSON and 200. */
  static Route post(String path, Api handler) {
    return new Route(Set.of("POST"), PathPattern.parse(path), true, true, handler);
  }

  /** Whether {@code path} is in the JSON admin API's part of the server. */
  static boolean isApi(String path) {
    return path.startsWith(API);
  }

  boolean takes(String method) {
    return methods.isEmpty() || methods.contains(method);
  }

  /** What answers a call: writes the whole response. */
  sealed interface Handler permits Api, Raw {}

  /** An API path: the request in, the JSON body of a 200 out (an error is thrown). */
  @FunctionalInterface
  non-sealed interface Api extends Handler {
    /**
     * @param segments the path's placeholders, raw (still URL-encoded)
     * @throws AdminException to answer with another status
     */
    Object answer(AdminApi api, AdminRequest request, Map<String, String> segments);
  }

  /** A path outside the API (health, metrics, the console's files): writes its own response. */
  @FunctionalInterface
  non-sealed interface Raw extends Handler {
    void serve(HttpExchange exchange, String path, AdminApi api) throws IOException;
  }
}
