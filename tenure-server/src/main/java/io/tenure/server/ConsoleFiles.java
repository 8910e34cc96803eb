package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;

/**
 * The web console: static files from the jar, by plain file name only (no paths, no class files).
 * Its scripts are ES modules that import one another as {@code ./name.js}, so they sit flat in one
 * folder, and each must go out as {@code text/javascript}: a browser runs no module of another
 * type.
 */
final class ConsoleFiles {
  private static final String FOLDER = "/io/tenure/server/console/";

  private ConsoleFiles() {}

  static void serve(HttpExchange exchange, String path) throws IOException {
    String file = path.equals("/") ? "index.html" : path.substring(1);
    if (!file.matches("[A-Za-z0-9_-]+\\.(html|js|css|svg|png|ico)")) {
      throw AdminException.notFound("no such page: " + path);
    }
    try (InputStream in = ConsoleFiles.class.getResourceAsStream(FOLDER + file)) {
      if (in == null) {
        throw AdminException.notFound("no such page: " + path);
      }
      byte[] bytes = in.readAllBytes();
      exchange.getResponseHeaders().set("Cache-Control", "no-cache");
      Exchanges.send(exchange, 200, contentType(file), bytes);
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
}
