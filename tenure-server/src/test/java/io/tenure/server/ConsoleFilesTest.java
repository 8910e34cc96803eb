package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Stores;
import io.tenure.spi.Store;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console is native ES modules that import one another, with no build step: a browser refuses a
 * module served with any type but JavaScript, and one missing module stops the whole page. So the
 * page's scripts and everything they import must be served, as {@code text/javascript}, and nothing
 * outside the console's folder may be.
 */
class ConsoleFilesTest {
  private static final String FOLDER = "/io/tenure/server/console/";

  /** The module the page starts from: {@code <script type="module" src="app.js">}. */
  private static final Pattern PAGE_SCRIPT =
      Pattern.compile("<script type=\"module\" src=\"([^\"]+)\"");

  /** A static import of a sibling: {@code import { h } from './dom.js';}. */
  private static final Pattern IMPORT =
      Pattern.compile("^import [^;]*? from '\\./([^']+)';", Pattern.MULTILINE);

  @TempDir Path folder;
  private final HttpClient http = HttpClient.newHttpClient();
  private Store store;
  private AdminServer server;

  @BeforeEach
  void start() {
    store = Stores.open("sqlite:" + folder.resolve("tenure.db"));
    server = AdminServer.builder(store).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
    store.close();
  }

  @Test
  void every_module_the_page_loads_is_served_as_javascript_and_every_script_is_loaded()
      throws Exception {
    Deque<String> pending = new ArrayDeque<>(all(PAGE_SCRIPT, get("/").body()));
    Set<String> loaded = new TreeSet<>();
    while (!pending.isEmpty()) {
      String file = pending.pop();
      if (!loaded.add(file)) {
        continue;
      }
      HttpResponse<String> script = get("/" + file);
      assertThat(script.statusCode()).as(file).isEqualTo(200);
      assertThat(script.headers().firstValue("Content-Type").orElse(""))
          .as(file)
          .startsWith("text/javascript");
      pending.addAll(all(IMPORT, script.body()));
    }
    // A script nothing imports is dead code the page never runs.
    assertThat(loaded).contains("app.js", "model.js").isEqualTo(scriptsInTheFolder());
  }

  @Test
  void a_file_the_console_does_not_have_or_a_path_out_of_its_folder_is_not_found()
      throws Exception {
    for (String path :
        List.of(
            "/nothing.js",
            "/app.js/",
            "/./app.js",
            "/../pom.xml",
            "/%2e%2e/pom.xml",
            "/..%2fpom.xml",
            "/io/tenure/server/console/app.js",
            "/io/tenure/server/Json.class",
            "/ConsoleFiles.class")) {
      assertThat(status(path)).as(path).isEqualTo(404);
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    URI uri = URI.create("http://127.0.0.1:" + server.port() + path);
    return http.send(
        HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The status of a GET sent as written, on a socket: no client tidies the path on the way. */
  private int status(String target) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      String request =
          "GET "
              + target
              + " HTTP/1.1\r\nHost: 127.0.0.1:"
              + server.port()
              + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return Integer.parseInt(response.split(" ", 3)[1]);
    }
  }

  private static List<String> all(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    return matcher.results().map(result -> result.group(1)).toList();
  }

  private static Set<String> scriptsInTheFolder() throws IOException, URISyntaxException {
    Path console = Path.of(ConsoleFilesTest.class.getResource(FOLDER).toURI());
    try (Stream<Path> files = Files.list(console)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".js"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
