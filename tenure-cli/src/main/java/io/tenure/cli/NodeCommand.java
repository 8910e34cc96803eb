package io.tenure.cli;

import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import io.tenure.server.AdminServer;
import io.tenure.spi.Store;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tenure node}: runs one cluster node until it is stopped. SIGTERM or Ctrl-C leaves
 * gracefully (LEAVING, step down, delete its row); SIGKILL is a crash the others detect.
 */
@Command(
    name = "node",
    description = {
      "Run one cluster node until stopped.",
      "It joins, heart-beats and competes for the leader lease; while leader it declares stale nodes"
          + " dead and cleans up. SIGTERM or Ctrl-C leaves gracefully. Each change of state is a line"
          + " on stdout (with --json a JSON object per line); log lines go to stderr.",
      "Every option is checked before the store is opened (opening creates or upgrades the"
          + " schema), so a bad one exits 2 and writes nothing. Durations: 500ms, 5s, 2m, 1h or PT5S."
    })
final class NodeCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(
      names = "--name",
      required = true,
      paramLabel = "NAME",
      description = "Node name: letters, digits, dot, underscore and hyphen.")
  String name = "";

  @Option(
      names = "--address",
      paramLabel = "URL",
      description = "Admin endpoint other nodes see. Default: the --http endpoint, if any.")
  String address = "";

  @Option(
      names = "--capability",
      paramLabel = "CAP",
      description = "Something this node can run; repeatable.")
  List<String> capabilities = new ArrayList<>();

  @Option(names = "--not-promotable", description = "Never become leader.")
  boolean notPromotable;

  @Option(
      names = "--acquire-delay",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Wait this long after the lease is free before taking it, so preferred nodes win.")
  @Nullable Duration acquireDelay;

  @Option(
      names = "--heartbeat-interval",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How often the node heart-beats. Default: 1s.")
  @Nullable Duration heartbeatInterval;

  @Option(
      names = "--self-fence-after",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Stop work when no heartbeat succeeded for this long. Default: 3s.")
  @Nullable Duration selfFenceAfter;

  @Option(
      names = "--stale-after",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "The leader declares a node dead whose heartbeat is this old. Default: 5s.")
  @Nullable Duration staleAfter;

  @Option(
      names = "--lease-ttl",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How long the leader lease lasts unless renewed. Default: 5s.")
  @Nullable Duration leaseTtl;

  @Option(
      names = "--renew-interval",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How often the leader renews its lease. Default: 1s.")
  @Nullable Duration renewInterval;

  @Option(
      names = "--fence-after",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "A leader whose renewals fail for this long steps down. Default: 4s.")
  @Nullable Duration fenceAfter;

  @Option(
      names = "--http",
      paramLabel = "PORT",
      description =
          "Serve the admin API, the console, metrics and health checks on this port (0: any"
              + " free one); the node's address then defaults to this endpoint.")
  @Nullable Integer httpPort;

  @Option(
      names = "--http-host",
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description =
          "Address to bind the admin endpoint to; any but loopback needs a token. Default: ${DEFAULT-VALUE}.")
  String httpHost = "127.0.0.1";

  @Option(
      names = "--no-wakeups",
      description =
          "Take no wake-ups: the node's consumers find new messages only by polling (see"
              + " docs/QUEUE.md, Wake-ups).")
  boolean noWakeups;

  @Option(
      names = "--wake-host",
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description =
          "Address of the UDP socket other processes wake this node's consumers through"
              + " (port chosen by the system); nodes on other hosts need one they can reach."
              + " Default: ${DEFAULT-VALUE}.")
  String wakeHost = "127.0.0.1";

  @Option(
      names = "--http-token",
      paramLabel = "TOKEN",
      defaultValue = "${env:TENURE_HTTP_TOKEN}",
      description =
          "Bearer token every admin API call and the metrics must then carry (health checks and"
              + " the console's files need none). Default: $TENURE_HTTP_TOKEN.")
  @Nullable String httpToken;

  @Option(
      names = "--http-allowed-host",
      paramLabel = "NAME[:PORT]",
      description =
          "A name the admin endpoint also answers to, e.g. the Host a reverse proxy or tunnel"
              + " forwards; repeatable. NAME alone allows any port. It always answers to its bind address"
              + " and port (on loopback also to localhost and the loopback addresses) and to the host of"
              + " --address; a request naming any other host gets 421.")
  List<String> httpAllowedHosts = new ArrayList<>();

  @Option(
      names = "--agents",
      paramLabel = "FAMILY=COUNT",
      converter = AgentsConverter.class,
      description =
          "Run sample agents: COUNT agents FAMILY-1 to FAMILY-COUNT of the family FAMILY (a count"
              + " of 1 is one singleton named FAMILY); repeatable.")
  List<AgentsConverter.SampleAgents> agents = new ArrayList<>();

  @Option(
      names = "--demo-workload",
      description =
          "Consume the demo's queues (orders: FIFO per key; ledger: exclusive), as demo nodes do.")
  boolean demoWorkload;

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      converter = LogFormat.Converter.class,
      defaultValue = "logfmt",
      description =
          "Log lines on stderr as logfmt or json; each names the node, its id and epoch."
              + " Default: logfmt, or json with --json.")
  LogFormat logFormat = LogFormat.LOGFMT;

  @Option(
      names = "--exit-with",
      paramLabel = "PID",
      hidden = true,
      description =
          "Leave when process PID ends (the demo's supervisor passes its own, so no node outlives it).")
  @Nullable Long exitWith;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    NodeStateLines lines = new NodeStateLines(out, storeOptions.json, name);
    boolean formatGiven = spec.commandLine().getParseResult().hasMatchedOption("--log-format");
    Logging.format(storeOptions.json && !formatGiven ? LogFormat.JSON : logFormat);
    // Named before the store is opened, so even the pool's lines say which node they come from.
    LogContext.name(name);
    // Opening the store migrates it: every setting is checked first, so bad input writes nothing.
    checkSettings(lines);
    // Through a Tenure, as an application's node is: its schedule firings, and the admin API's
    // replays, retries, run-nows and resumes, wake the consumers on other nodes.
    Tenure tenure = Tenure.on(storeOptions.openMigrated(), name);
    Store store = tenure.store();
    TenureNode node;
    AdminServer server = null;
    try {
      if (httpPort != null) {
        // Started before the node is built, so the node can advertise the port actually bound.
        server =
            AdminServer.builder(store)
                .bind(httpHost, httpPort)
                .token(httpToken)
                .allowedHosts(allowedHosts())
                .build()
                .start();
      }
      node = configure(TenureNode.builder(store), store, lines, server).build();
      LogContext.nodeId(node.nodeId());
      if (server != null) {
        server.attach(node);
      }
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      tenure.close();
      throw e;
    }
    AdminServer http = server;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  lines.print(node.nodeId(), "leaving", "leaving", Map.of());
                  node.close();
                  if (http != null) {
                    http.close();
                  }
                  tenure.close();
                  stopped.countDown();
                },
                "tenure-shutdown"));
    node.start();
    lines.print(node.nodeId(), "joined", "joined as " + name, Map.of());
    if (exitWith != null) {
      ProcessHandle.of(exitWith)
          .ifPresentOrElse(
              parent -> parent.onExit().thenRun(() -> System.exit(ExitCodes.OK)),
              () -> System.exit(ExitCodes.OK));
    }
    if (http != null) {
      lines.print(
          node.nodeId(),
          "http",
          "admin API and console on " + http.url(),
          Map.of("url", http.url()));
    }
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCodes.OK;
  }

  /**
   * Checks every option before the store is touched: the admin endpoint's binding, then the whole
   * node built as it will be, with its agents and workload, on a throw-away in-memory store, so
   * that the builder's own checks (names, durations, the rules between them) run before a file or
   * table exists.
   *
   * @throws CommandFailure with {@link ExitCodes#USAGE} naming the bad setting
   */
  private void checkSettings(NodeStateLines lines) {
    try {
      if (httpPort != null) {
        AdminServer.checkBinding(httpHost, httpPort, httpToken, allowedHosts());
      }
      try (Store check = new SettingsCheckStore();
          // Built to run the builder's checks; closing it frees the wake-up socket it bound.
          TenureNode unused = configure(TenureNode.builder(check), check, lines, null).build()) {
        unused.settings();
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CommandFailure(
          ExitCodes.USAGE, inOptionTerms(e.getMessage()) + "; nothing was written");
    }
  }

  /**
   * The builder names its settings as Java does ({@code leaseTtl}); a user typed {@code
   * --lease-ttl}.
   */
  private String inOptionTerms(String message) {
    java.util.regex.Matcher setting =
        java.util.regex.Pattern.compile("\\b[a-z]+(?:[A-Z][a-z]*)+\\b").matcher(message);
    StringBuilder out = new StringBuilder();
    while (setting.find()) {
      String option =
          "--" + setting.group().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
      setting.appendReplacement(
          out,
          java.util.regex.Matcher.quoteReplacement(
              spec.findOption(option) == null ? setting.group() : option));
    }
    return setting.appendTail(out).toString();
  }

  /**
   * The allowed names, and the host other nodes are told to use (--address): a call they forward
   * names it.
   */
  private List<String> allowedHosts() {
    List<String> hosts = new ArrayList<>(httpAllowedHosts);
    if (!address.isEmpty()) {
      try {
        String advertised = java.net.URI.create(address).getHost();
        if (advertised != null) {
          hosts.add(advertised);
        }
      } catch (IllegalArgumentException e) {
        // not a URL: the admin server has no name to add; the node reports its address as given
      }
    }
    return hosts;
  }

  private TenureNodeBuilder configure(
      TenureNodeBuilder builder, Store store, NodeStateLines lines, @Nullable AdminServer server) {
    String advertised = address.isEmpty() && server != null ? server.advertisedUrl() : address;
    builder.name(name).address(advertised).promotable(!notPromotable);
    agents.forEach(
        sample -> builder.agentFamily(DemoWorkload.family(sample.family(), sample.count())));
    if (demoWorkload) {
      DemoWorkload.consume(builder, store, name);
    }
    capabilities.forEach(builder::capability);
    builder.wakeups(!noWakeups, wakeHost);
    if (acquireDelay != null) {
      builder.acquireDelay(acquireDelay);
    }
    if (heartbeatInterval != null) {
      builder.heartbeatInterval(heartbeatInterval);
    }
    if (selfFenceAfter != null) {
      builder.selfFenceAfter(selfFenceAfter);
    }
    if (staleAfter != null) {
      builder.staleAfter(staleAfter);
    }
    if (leaseTtl != null) {
      builder.leaseTtl(leaseTtl);
    }
    if (renewInterval != null) {
      builder.renewInterval(renewInterval);
    }
    if (fenceAfter != null) {
      builder.fenceAfter(fenceAfter);
    }
    return builder.listener(lines.listener());
  }
}
