package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.chaos.NodeProcesses;
import io.tenure.server.Json;
import io.tenure.spi.TablePrefix;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tenure demo} and {@code tenure chaos} given a store URL with a password, on PostgreSQL
 * (its trust authentication accepts any password): the password is in no node process's command
 * line (what {@code ps} shows every user), not on stderr or stdout, not in {@code GET /api/demo},
 * which needs no token, and not in the chaos report.
 */
@Timeout(180)
class StorePasswordTest {
  private static final String POSTGRES =
      System.getenv()
          .getOrDefault(
              "TENURE_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path folder;

  private final String prefix =
      "pw" + UUID.randomUUID().toString().replace("-", "").substring(0, 8) + "_";
  private String secret = "";

  /** The test URL with a password: its own, if it has one, else a made-up one trust ignores. */
  private String urlWithPassword() {
    Matcher own = Pattern.compile("(?i)password=([^&;]+)").matcher(POSTGRES);
    if (own.find()) {
      secret = own.group(1);
      return POSTGRES;
    }
    secret = "Pw" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return POSTGRES + (POSTGRES.contains("?") ? "&" : "?") + "password=" + secret;
  }

  @Test
  void the_demo_passes_the_store_to_its_nodes_in_their_environment_and_shows_it_masked()
      throws Exception {
    requirePostgres();
    assertThat(NodeProcesses.STORE_VARIABLE)
        .as("what tenure node reads")
        .isEqualTo(StoreOptions.STORE_VARIABLE);
    assertThat(DemoCommand.nodeArguments(TablePrefix.of(prefix), 1)).doesNotContain("--store");
    Cli.Background demo =
        Cli.start(
            "demo",
            "--store",
            urlWithPassword(),
            "--prefix",
            prefix,
            "--dir",
            folder.toString(),
            "--nodes",
            "2",
            "--duration",
            "6s",
            "--rate",
            "20",
            "--no-browser",
            "--http",
            "0");
    try {
      String console =
          await(
              "the console URL",
              () -> {
                Matcher line =
                    Pattern.compile("console: (http://\\S+)").matcher(demo.err().toString());
                return line.find() ? line.group(1) : null;
              });
      List<ProcessHandle> nodes =
          await(
              "both node processes",
              () -> {
                List<ProcessHandle> found = nodeProcesses();
                return found.size() == 2 ? found : null;
              });
      for (ProcessHandle node : nodes) {
        String commandLine = node.info().commandLine().orElseThrow();
        assertThat(commandLine)
            .contains("--demo-workload")
            .doesNotContain(secret)
            .doesNotContain("--store");
      }
      HttpClient http = HttpClient.newHttpClient();
      String shown =
          http.send(
                  HttpRequest.newBuilder(URI.create(console + "/api/demo")).GET().build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(shown).doesNotContain(secret);
      assertThat((String) Json.parseObject(shown).get("store")).contains("password=***");
      assertThat(
              http.send(
                      HttpRequest.newBuilder(URI.create(console + "/api/cluster")).GET().build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body())
          .doesNotContain(secret);

      Cli.Result result = demo.result().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(result.exitCode()).as(result.toString()).isZero();
      assertThat(result.out()).doesNotContain(secret);
      assertThat(result.err()).doesNotContain(secret).contains("password=***");
      assertThat(logs()).doesNotContain(secret);
    } finally {
      demo.result().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      dropTables();
    }
  }

  @Test
  void chaos_passes_the_store_to_its_nodes_in_their_environment_and_shows_it_masked()
      throws Exception {
    requirePostgres();
    Path dir = folder.resolve("chaos");
    // The shortest run with one fault: the subject is where the URL goes, not the invariants.
    Cli.Background chaos =
        Cli.start(
            "chaos",
            "--store",
            urlWithPassword(),
            "--nodes",
            "2",
            "--duration",
            "4s",
            "--quiet",
            "4s",
            "--faults",
            "stop",
            "--rate",
            "10",
            "--dir",
            dir.toString());
    try {
      // Every node process of the run, restarts included: watched until the run ends.
      String runPrefix = await("the run's prefix", () -> chaosPrefix(chaos));
      Map<Long, String> seen = new java.util.HashMap<>();
      while (!chaos.result().isDone()) {
        ProcessHandle.current()
            .descendants()
            .forEach(
                p ->
                    p.info()
                        .commandLine()
                        .filter(
                            line ->
                                line.contains(io.tenure.chaos.ChaosNode.class.getName())
                                    && line.contains(runPrefix))
                        .ifPresent(line -> seen.put(p.pid(), line)));
        Thread.sleep(50);
      }
      assertThat(seen).as("node processes seen").hasSizeGreaterThanOrEqualTo(2);
      assertThat(seen.values())
          .allSatisfy(line -> assertThat(line).doesNotContain(secret).doesNotContain("--store"));

      Cli.Result result = chaos.result().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      // 0: every invariant held; 7: the run completed and found a broken one. Either way it ran.
      assertThat(result.exitCode())
          .as(result.toString())
          .isIn(ExitCodes.OK, ExitCodes.INVARIANT_BROKEN);
      assertThat(result.out()).doesNotContain(secret);
      assertThat(result.err()).doesNotContain(secret).contains("password=***");
      String report = Files.readString(dir.resolve("report.json"));
      assertThat(report).doesNotContain(secret);
      // The nodes found their store in the environment: they handled the run's messages.
      assertThat((Long) Json.parseObject(report).get("handled")).as(report).isPositive();
      try (var files = Files.list(dir)) {
        for (Path file : files.toList()) {
          assertThat(Files.readString(file, StandardCharsets.UTF_8))
              .as(file.toString())
              .doesNotContain(secret);
        }
      }
    } finally {
      chaos.result().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** The chaos run's own prefix, once it printed it. */
  private static String chaosPrefix(Cli.Background chaos) {
    Matcher line = Pattern.compile("\\(prefix (chaos_\\w+)\\)").matcher(chaos.err().toString());
    return line.find() ? line.group(1) : null;
  }

  /** This test's demo nodes: processes under this JVM started with its prefix. */
  private List<ProcessHandle> nodeProcesses() {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains(prefix))
        .toList();
  }

  private String logs() throws Exception {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        all.append(Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    return all.toString();
  }

  private static <T> T await(String what, Supplier<T> found) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    for (T value = found.get(); ; value = found.get()) {
      if (value != null) {
        return value;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  private void dropTables() throws SQLException {
    try (Connection connection = DriverManager.getConnection(POSTGRES);
        java.sql.Statement statement = connection.createStatement()) {
      List<String> tables = new java.util.ArrayList<>();
      try (java.sql.ResultSet rows =
          connection.getMetaData().getTables(null, null, prefix + "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_NAME"));
        }
      }
      for (String table : tables) {
        statement.execute("DROP TABLE IF EXISTS " + table + " CASCADE");
      }
    }
  }

  private static void requirePostgres() {
    Reachable.requirePostgres(POSTGRES, "The store password tests");
  }
}
