package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reading a request's query and body, and writing every response with the guard's headers. */
final class Exchanges {
  private Exchanges() {}

  /** The body as text, refused unread past {@code limit} bytes. */
  static String body(HttpExchange exchange, int limit) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        throw new AdminException(413, "request body over " + limit + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** The query parameters, decoded; the last value of a repeated one. */
  static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> parameters = new LinkedHashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name =
          URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      parameters.put(name, value);
    }
    return parameters;
  }

  /** {@code {"error": message}} with the status. */
  static void error(HttpExchange exchange, int status, @Nullable String message)
      throws IOException {
    json(exchange, status, Map.of("error", message == null ? "error" : message));
  }

  static void json(HttpExchange exchange, int status, Object value) throws IOException {
    send(exchange, status, "application/json", Json.write(value).getBytes(StandardCharsets.UTF_8));
  }

  static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    RequestGuard.secure(exchange.getResponseHeaders(), type);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
