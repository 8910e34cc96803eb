package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Stores;
import io.tenure.spi.Lease;
import io.tenure.spi.Store;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tenure node} as a real process: it leads alone, and SIGTERM leaves gracefully. */
@org.junit.jupiter.api.Timeout(120)
class NodeProcessTest {
  @TempDir Path directory;

  private Process node(String url, String name) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            TenureCommand.class.getName(),
            "node",
            "--store",
            url,
            "--name",
            name,
            "--renew-interval",
            "200ms");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TENURE_STORE");
    return builder.start();
  }

  private static String awaitLine(BufferedReader out, String part) throws Exception {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.contains(part)) {
        return line;
      }
    }
    throw new AssertionError("the node exited before printing '" + part + "'");
  }

  private static void awaitLines(BufferedReader out, String... parts) throws Exception {
    java.util.Set<String> missing = new java.util.HashSet<>(List.of(parts));
    while (!missing.isEmpty()) {
      String line = out.readLine();
      if (line == null) {
        break;
      }
      missing.removeIf(line::contains);
    }
    assertThat(missing).as("lines not printed before the node exited").isEmpty();
  }

  @Test
  void a_lone_node_leads_and_sigterm_steps_down_and_deletes_its_row() throws Exception {
    String url = "sqlite:" + directory.resolve("n.db");
    Process process = node(url, "solo");
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      // The node may win the election before it prints that it joined: accept either order.
      awaitLines(out, "joined as solo", "(solo) is leader at epoch 1");

      // Through the handle: Process.destroy() would also close our end of its output.
      process.toHandle().destroy();

      assertThat(awaitLine(out, "STEP_DOWN")).contains("no longer leader at epoch 1");
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      process.destroyForcibly();
    }
    try (Store store = Stores.open(url)) {
      Lease lease = store.leases().read();
      assertThat(lease.epoch()).isEqualTo(1);
      assertThat(lease.live()).as("released on the way out").isFalse();
      assertThat(store.membership().read().nodes()).as("row deleted on leave").isEmpty();
    }
  }

  @Test
  void bad_timings_are_refused_naming_both_values_before_anything_is_written() throws Exception {
    String url = "sqlite:" + directory.resolve("bad.db");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            TenureCommand.class.getName(),
            "node",
            "--store",
            url,
            "--name",
            "x",
            "--lease-ttl",
            "3s",
            "--fence-after",
            "4s");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isEqualTo(2);
    assertThat(output).contains("--fence-after must be less than --lease-ttl, got PT4S and PT3S");
    assertThat(directory.resolve("bad.db")).as("checked before the store is opened").doesNotExist();
  }

  @Test
  void with_json_every_line_the_node_writes_is_a_json_object() throws Exception {
    String url = "sqlite:" + directory.resolve("j.db");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            TenureCommand.class.getName(),
            "node",
            "--store",
            url,
            "--name",
            "js",
            "--renew-interval",
            "200ms",
            "--json",
            "--verbose");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TENURE_STORE");
    Process process = builder.start();
    List<java.util.Map<String, Object>> lines = new java.util.ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      java.util.Set<String> events = new java.util.HashSet<>();
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(io.tenure.server.Json.parseObject(line));
        if (lines.getLast().get("event") instanceof String event) {
          events.add(event);
          if (events.containsAll(List.of("joined", "leader"))) {
            process.toHandle().destroy();
          }
        }
      }
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      process.destroyForcibly();
    }
    assertThat(lines)
        .filteredOn(l -> l.containsKey("event"))
        .extracting(l -> l.get("event"))
        .contains("joined", "leader", "leaving", "demoted");
    assertThat(lines)
        .filteredOn(l -> "leader".equals(l.get("event")))
        .singleElement()
        .satisfies(
            l ->
                assertThat(l)
                    .containsEntry("node", "js")
                    .containsEntry("epoch", 1L)
                    .containsKey("time"));
    assertThat(lines)
        .as("log lines (--verbose) are JSON too")
        .anySatisfy(l -> assertThat(l).containsKeys("level", "msg"));
  }

  @Test
  void the_admin_endpoint_answers_to_its_address_and_allowed_names_and_refuses_others()
      throws Exception {
    String url = "sqlite:" + directory.resolve("h.db");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            TenureCommand.class.getName(),
            "node",
            "--store",
            url,
            "--name",
            "web",
            "--http",
            "0",
            "--address",
            "http://tenure-web.example:9000",
            "--http-allowed-host",
            "proxy.example");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TENURE_STORE");
    Process process = builder.start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line = awaitLine(out, "admin API and console on ");
      String console = line.substring(line.indexOf("http://")).trim();
      assertThat(console).doesNotEndWith("/");
      int port = java.net.URI.create(console).getPort();

      for (String host :
          List.of(
              "127.0.0.1:" + port,
              "localhost:" + port,
              "tenure-web.example:9000",
              "proxy.example")) {
        assertThat(status(port, host)).as(host).isEqualTo(200);
      }
      assertThat(status(port, "rebind.evil.example:" + port)).isEqualTo(421);
    } finally {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The status of GET /health/live naming {@code host}, sent on a socket (HttpClient will not set
   * Host).
   */
  private static int status(int port, String host) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      socket
          .getOutputStream()
          .write(
              ("GET /health/live HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
      String response =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      return Integer.parseInt(response.split(" ")[1]);
    }
  }
}
