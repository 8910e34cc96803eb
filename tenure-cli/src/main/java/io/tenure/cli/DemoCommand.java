package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.Stores;
import io.tenure.server.AdminException;
import io.tenure.server.AdminServer;
import io.tenure.server.Json;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tenure demo}: a live cluster to break and watch heal. N node processes on one store,
 * sample agents, a steady workload on two queues, and the console, served by this supervisor
 * process.
 */
@Command(
    name = "demo",
    description = {
      "Run a demo cluster to break and watch heal.",
      "N node processes (default 3) on a fresh SQLite file, sample agents, a steady workload on two"
          + " queues (orders: FIFO per key; ledger: exclusive), and the console. Stop, kill, pause"
          + " and restart nodes from the console and watch the leader, agents and work move.",
      "The SQLite file is the default store of every other command, so 'tenure nodes', 'tenure"
          + " agents' or 'tenure events --follow' in another shell show the demo without options."
          + " Each run deletes the file a previous demo made and starts afresh; it refuses to delete"
          + " a file that a demo did not make.",
      "With --duration it runs unattended and prints a one-line JSON summary; exit 0 when no"
          + " message was lost or stranded, 7 otherwise.",
      "On SQLite, pausing a node freezes its process: one frozen inside a write holds SQLite's only"
          + " write lock and stalls every node's writes until it resumes (see PROVIDERS in the docs"
          + " folder); kill and stop do not."
    })
final class DemoCommand implements Callable<Integer> {
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

  @Option(
      names = "--store",
      paramLabel = "URL",
      description =
          "Store URL. Default: $TENURE_STORE if set, else a fresh SQLite file in --dir. On"
              + " PostgreSQL or MariaDB each run uses new tables under a prefix demo_<time>_.")
  @Nullable String store;

  @Option(
      names = "--prefix",
      paramLabel = "PREFIX",
      converter = PrefixConverter.class,
      description =
          "Table prefix on a --store server. Default: a new demo_<time>_ per run, whose"
              + " tables stay afterwards (drop them, or pass the same prefix again).")
  @Nullable TablePrefix prefix;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      defaultValue = "tenure-data",
      description =
          "Folder for the SQLite file and the nodes' logs. Default: ${DEFAULT-VALUE}, whose"
              + " SQLite file is every command's default store.")
  Path dir = Path.of("tenure-data");

  @Option(
      names = "--nodes",
      paramLabel = "N",
      defaultValue = "3",
      description = "Node processes, 1 to 9. Default: ${DEFAULT-VALUE}.")
  int nodes = 3;

  @Option(
      names = "--http",
      paramLabel = "PORT",
      defaultValue = "8080",
      description = "Console port; if it is in use, any free port. Default: ${DEFAULT-VALUE}.")
  int httpPort = 8080;

  @Option(
      names = "--rate",
      paramLabel = "PER_SECOND",
      defaultValue = "20",
      description = "Messages enqueued per second, 1 to 1000. Default: ${DEFAULT-VALUE}.")
  int rate = 20;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Run this long, drain, print a one-line JSON summary and exit (e.g. 30s).")
  @Nullable Duration duration;

  @Option(names = "--no-browser", description = "Do not open the console in a browser.")
  boolean noBrowser;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    // Progress goes to stderr, so stdout carries only the summary a script reads.
    PrintWriter out = spec.commandLine().getErr();
    PrintWriter result = spec.commandLine().getOut();
    check();
    Files.createDirectories(dir);
    String url = storeUrl();
    TablePrefix prefix =
        store == null
            ? TablePrefix.DEFAULT
            : this.prefix != null
                ? this.prefix
                : TablePrefix.of(
                    "demo_" + Long.toString(System.currentTimeMillis() / 1000, 36) + "_");
    try (Store supervisor = Stores.open(new StoreSettings(url, prefix, true))) {
      if (store == null) {
        DemoStore.mark(supervisor);
      }
      DemoLedger ledger = new DemoLedger(supervisor);
      DemoNodes processes = new DemoNodes(launcher(), url, dir, out);
      AdminServer console = console(supervisor, processes, ledger, url);
      try {
        for (int i = 1; i <= nodes; i++) {
          processes.add("node-" + i, nodeArguments(prefix, i));
        }
        if (!processes.awaitStarted(Duration.ofSeconds(60))) {
          throw new CommandFailure(
              ExitCodes.UNAVAILABLE,
              "a demo node did not start within 60 s; see its log in " + dir.toAbsolutePath());
        }
        say(
            out,
            "console: "
                + console.url()
                + "  (store "
                + Stores.maskSecrets(url)
                + (store == null ? "" : ", prefix " + prefix.value())
                + "; node logs in "
                + dir.toAbsolutePath()
                + ")");
        say(
            out,
            "inspect it from another shell: "
                + inspect(url, prefix, "nodes")
                + ", "
                + inspect(url, prefix, "agents")
                + ", "
                + inspect(url, prefix, "events --follow"));
        if (!noBrowser) {
          openBrowser(console.url(), out);
        }
        return run(supervisor, ledger, out, result);
      } finally {
        processes.stopAll(Duration.ofSeconds(15));
        console.close();
      }
    }
  }

  private void check() {
    if (nodes < 1 || nodes > 9) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--nodes must be 1 to 9, got " + nodes);
    }
    if (rate < 1 || rate > 1000) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--rate must be 1 to 1000, got " + rate);
    }
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--duration must be positive");
    }
    if (httpPort < 0 || httpPort > 65_535) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--http must be 0 to 65535, got " + httpPort);
    }
  }

  /**
   * A fresh SQLite file in the demo folder (by default the launcher's default store, so that every
   * other command reads it without options), unless a store was given.
   */
  private String storeUrl() throws IOException {
    if (store != null) {
      return store;
    }
    Path file = dir.resolve("tenure.db").toAbsolutePath();
    DemoStore.clear(file);
    return "sqlite:" + file;
  }

  /**
   * @return the command that runs {@code command} on the demo's store: options only where the
   *     launcher's defaults (or {@code TENURE_STORE}) would not find it
   */
  private String inspect(String url, TablePrefix prefix, String command) {
    StringBuilder line = new StringBuilder(TenureCommand.launcher(spec) + " " + command);
    boolean typed = spec.commandLine().getParseResult().hasMatchedOption("--store");
    boolean defaultFile =
        store == null && Path.of(url.substring("sqlite:".length())).equals(defaultFile());
    if (typed || store == null && !defaultFile) {
      line.append(" --store ").append(Shell.quote(Stores.maskSecrets(url)));
    }
    if (!prefix.equals(TablePrefix.DEFAULT)) {
      line.append(" --prefix ").append(prefix.value());
    }
    return line.toString();
  }

  private static Path defaultFile() {
    return Path.of(StoreOptions.DEFAULT_URL.substring("sqlite:".length())).toAbsolutePath();
  }

  private AdminServer console(
      Store supervisor, DemoNodes processes, DemoLedger ledger, String url) {
    AdminServer.Builder builder =
        AdminServer.builder(supervisor)
            .route(
                "/api/demo",
                request -> {
                  if (request.path().equals("/api/demo")) {
                    if (!request.method().equals("GET")) {
                      throw new AdminException(405, "use GET /api/demo");
                    }
                    Map<String, Object> demo = new LinkedHashMap<>();
                    demo.put(
                        "store",
                        Stores.maskSecrets(url)); // no token guards this page: never the password
                    demo.put("nodes", processes.describe());
                    demo.put("workload", ledger.live());
                    return demo;
                  }
                  return processes.act(request);
                });
    try {
      AdminServer.checkBinding("127.0.0.1", httpPort, null);
      return builder.bind("127.0.0.1", httpPort).build().start();
    } catch (IllegalStateException portInUse) {
      return builder.bind("127.0.0.1", 0).build().start();
    }
  }

  /** A node's arguments; its store URL goes in its environment, where {@code ps} cannot show it. */
  static List<String> nodeArguments(TablePrefix prefix, int index) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--prefix",
                prefix.value(),
                "--name",
                "node-" + index,
                "--http",
                "0",
                "--agents",
                "projection=6",
                "--agents",
                "report=3",
                "--agents",
                "singleton=1",
                "--demo-workload",
                "--exit-with",
                Long.toString(ProcessHandle.current().pid())));
    if (index > 3) {
      arguments.add("--not-promotable"); // three candidates are plenty; the rest only work
    }
    return arguments;
  }

  /** Feeds the queues until the duration ends (or forever), then drains and summarizes. */
  private int run(Store supervisor, DemoLedger ledger, PrintWriter out, PrintWriter result)
      throws InterruptedException {
    Queue orders = DemoWorkload.queue(supervisor, DemoWorkload.ORDERS);
    Queue ledgerQueue = DemoWorkload.queue(supervisor, DemoWorkload.LEDGER);
    CountDownLatch interrupted = new CountDownLatch(1);
    Thread hook = new Thread(interrupted::countDown, "tenure-demo-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
    long every = TimeUnit.SECONDS.toNanos(1) / rate;
    long next = System.nanoTime();
    long lastRefresh = 0;
    long sequence = 0;
    while (System.nanoTime() < end && interrupted.getCount() > 0) {
      Queue target = sequence % 4 == 3 ? ledgerQueue : orders;
      try {
        ledger.sent(target.enqueue(DemoWorkload.message(sequence, 25)));
        sequence++;
      } catch (RuntimeException e) {
        say(out, "enqueue failed (will retry): " + e.getMessage());
      }
      if (System.nanoTime() - lastRefresh > TimeUnit.SECONDS.toNanos(2)) {
        lastRefresh = System.nanoTime();
        ledger.refresh();
      }
      next += every;
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        interrupted.await(sleep, TimeUnit.NANOSECONDS);
      }
    }
    if (interrupted.getCount() == 0) {
      say(out, "stopping the demo");
      return ExitCodes.OK;
    }
    Runtime.getRuntime().removeShutdownHook(hook);
    say(out, "workload stopped; draining (up to " + DRAIN_TIMEOUT.toSeconds() + " s)");
    long drainEnd = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    while (System.nanoTime() < drainEnd
        && supervisor.queues().stats().stream().anyMatch(s -> s.pending() + s.inflight() > 0)) {
      Thread.sleep(200);
    }
    Map<String, Object> summary = ledger.summary();
    result.println(Json.write(summary));
    result.flush();
    return (long) summary.get("lost") == 0 && (long) summary.get("stranded") == 0
        ? ExitCodes.OK
        : ExitCodes.INVARIANT_BROKEN;
  }

  /** The command that runs this launcher again: this JVM's java and this jar. */
  static List<String> launcher() {
    Path jar = jar();
    List<String> command = jvm();
    if (Files.isDirectory(jar)) {
      command.addAll(
          List.of("-cp", System.getProperty("java.class.path"), TenureCommand.class.getName()));
    } else {
      command.addAll(List.of("-jar", jar.toString()));
    }
    return command;
  }

  /**
   * @return the command that starts a JVM as {@link #launcher()} does, on the launcher's classpath,
   *     for a main class of the caller's: the fault harness's node processes run its own
   */
  static List<String> javaOnClasspath() {
    Path jar = jar();
    List<String> command = jvm();
    // -jar would grant it from the manifest: sqlite-jdbc loads a native library.
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(
        List.of(
            "-cp",
            Files.isDirectory(jar) ? System.getProperty("java.class.path") : jar.toString()));
    return command;
  }

  private static List<String> jvm() {
    String java = ProcessHandle.current().info().command().orElse("java");
    return new ArrayList<>(
        List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
  }

  private static Path jar() {
    try {
      return Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | SecurityException e) {
      throw new IllegalStateException("cannot find the launcher's jar: " + e.getMessage(), e);
    }
  }

  private static void openBrowser(String url, PrintWriter out) {
    for (String opener : new String[] {"xdg-open", "open"}) {
      try {
        new ProcessBuilder(opener, url)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        return;
      } catch (IOException e) {
        // try the next one
      }
    }
    say(out, "open " + url + " in a browser");
  }

  private static void say(PrintWriter out, String line) {
    synchronized (out) {
      out.println("demo: " + line);
      out.flush();
    }
  }
}
