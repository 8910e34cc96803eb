package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/ADMIN-API.md and the route table name the same routes: a route nobody documented, or a
 * documented one the server does not serve, fails here. The demo supervisor's paths are left out:
 * the launcher adds them with {@link AdminServer.Builder#route}, and its section says so.
 */
class AdminRoutesDocumentedTest {
  private static final Path DOC = Path.of("..", "docs", "ADMIN-API.md");

  /** A read or action heading its own line: {@code `GET /api/events?limit=100` — ...}. */
  private static final Pattern CALL = Pattern.compile("^`(GET|POST) (/[^`?]*)(\\?[^`]*)?`( —.*)?$");

  /** A table row whose first cell is a path: {@code | `/api/agents/pin` | ... |}. */
  private static final Pattern ROW = Pattern.compile("^\\| `(/[^`]*)` \\|");

  @Test
  void every_route_in_the_table_is_documented_and_every_documented_route_is_served()
      throws IOException {
    assertThat(documented()).isEqualTo(served());
  }

  @Test
  void every_post_into_the_api_is_a_write_and_nothing_else_is() {
    for (Route route : RouteTable.STANDARD) {
      boolean api = Route.isApi(route.path().text());
      assertThat(route.write())
          .as(route.path().text())
          .isEqualTo(api && route.methods().contains("POST"));
      assertThat(route.token())
          .as("the token guards the API and the metrics: " + route.path().text())
          .isEqualTo(api || route.path().text().equals("/metrics"));
    }
  }

  /** The table's routes as the doc writes them: {@code GET /api/cluster}, or a bare path. */
  private static Set<String> served() {
    return RouteTable.STANDARD.stream()
        .map(
            route -> {
              String path = route.path().text();
              if (!Route.isApi(path)) {
                // The console's row takes every path outside the API; the doc lists it as "/".
                return path.equals("/**") ? "/" : path;
              }
              return String.join(",", new TreeSet<>(route.methods())) + " " + path;
            })
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> documented() throws IOException {
    List<String> lines = Files.readAllLines(DOC);
    Set<String> routes = new TreeSet<>();
    String section = "";
    for (String line : lines) {
      if (line.startsWith("## ")) {
        section = line;
      }
      if (section.startsWith("## The demo's supervisor")) {
        continue;
      }
      Matcher call = CALL.matcher(line);
      if (call.matches()) {
        routes.add(call.group(1) + " " + call.group(2));
      }
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        String path = row.group(1);
        if (section.startsWith("## Actions")) {
          routes.add("POST " + path);
        } else if (section.isEmpty() && !path.startsWith("/api/")) {
          routes.add(path); // the table of what one port serves, before the first section
        }
      }
    }
    assertThat(routes).as("routes found in " + DOC).hasSizeGreaterThan(10);
    return routes;
  }
}
