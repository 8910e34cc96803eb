package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Stores;
import io.tenure.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the server routes every method on every path, pinned as a table (admin-routing.txt): the
 * status and error of each answer, and whether a server with a token asks for it before anything
 * else. A server that is not a node, on an empty store, so each answer shows which handler (or
 * which refusal) a request reached without changing anything: a read of an absent queue is "no
 * queue", an agent action is forwarded and finds no leader.
 */
class AdminRoutingTest {
  private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE");

  private static final List<String> PATHS =
      List.of(
          "/",
          "/index.html",
          "/app.js",
          "/model.js",
          "/nothing.js",
          "/nope",
          "/a/b",
          "/api",
          "/api/",
          "/api/nothing",
          "/api/cluster",
          "/api/cluster/",
          "/api//cluster",
          "/api/agents",
          "/api/locks",
          "/api/agents/",
          "/api/agents/pause",
          "/api/agents/resume",
          "/api/agents/pin",
          "/api/agents/rebalance",
          "/api/queues",
          "/api/queues/",
          "/api/queues/orders",
          "/api/queues/orders/dead",
          "/api/queues/orders/dead/",
          "/api/queues/orders/dead/7/replay",
          "/api/queues/orders/dead/replay",
          "/api/queues/orders/dead/purge",
          "/api/queues/orders/dead/replay/x",
          "/api/events",
          "/api/events?limit=0",
          "/api/messages",
          "/api/messages/",
          "/api/messages/7",
          "/api/messages/abc",
          "/api/messages/7/x",
          "/api/messages/7/cancel",
          "/api/messages/7/delete",
          "/api/messages/7/run-now",
          "/api/messages/7/retry",
          "/api/demo",
          "/api/demo/",
          "/api/demo/nodes/n1/stop",
          "/api/demox",
          "/health/live",
          "/health/live/",
          "/health/ready",
          "/metrics",
          "/metrics/");

  @TempDir Path folder;
  private final HttpClient http = HttpClient.newHttpClient();
  private Store store;
  private AdminServer open;
  private AdminServer guarded;

  @BeforeEach
  void start() {
    store = Stores.open("sqlite:" + folder.resolve("tenure.db"));
    AdminRoute echo = request -> List.of(request.method(), request.path());
    open = AdminServer.builder(store).route("/api/demo", echo).build().start();
    guarded = AdminServer.builder(store).token("secret").route("/api/demo", echo).build().start();
  }

  @AfterEach
  void stop() {
    open.close();
    guarded.close();
    store.close();
  }

  @Test
  void every_method_on_every_path_gets_the_answer_in_the_routing_table() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String path : PATHS) {
      for (String method : METHODS) {
        String answer = answer(open, method, path, "application/json");
        String withoutToken = answer(guarded, method, path, "application/json");
        lines.add(
            method
                + " "
                + path
                + " -> "
                + answer
                + (withoutToken.startsWith("401") ? " | token first" : ""));
      }
      lines.add("POST(text/plain) " + path + " -> " + answer(open, "POST", path, "text/plain"));
    }
    // Left beside the build's output, so a change to the table can be reviewed as a diff.
    java.nio.file.Files.writeString(
        Path.of("target/admin-routing.actual.txt"), String.join("\n", lines) + "\n");
    assertThat(String.join("\n", lines)).isEqualTo(expected());
  }

  /** The status and, where it says something, the body. */
  private String answer(AdminServer server, String method, String path, String type)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .header("Content-Type", type)
            .method(
                method,
                method.equals("POST")
                    ? HttpRequest.BodyPublishers.ofString("{}")
                    : HttpRequest.BodyPublishers.noBody());
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return shown(server, path, String.valueOf(response.statusCode()), response.body());
  }

  private static String shown(AdminServer server, String path, String status, String text) {
    boolean shown = !text.isEmpty() && (!status.equals("200") || path.startsWith("/api/demo"));
    return status + (shown ? " " + text.replace(String.valueOf(server.port()), "PORT") : "");
  }

  private static String expected() throws IOException {
    try (InputStream in = AdminRoutingTest.class.getResourceAsStream("admin-routing.txt")) {
      assertThat(in).as("admin-routing.txt beside this test").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }
}
