package io.tenure.cli;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.TenureNode;
import io.tenure.server.AdminServer;
import io.tenure.spi.Store;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code tenure node}: runs one cluster node until it is stopped. SIGTERM or Ctrl-C leaves
 * gracefully (LEAVING, step down, delete its row); SIGKILL is a crash the others detect.
 */
@Command(
    name = "node",
    description = {
      "Run one cluster node until stopped.",
      "It joins, heart-beats and competes for the leader lease; while leader it declares stale",
      "nodes dead and cleans up. SIGTERM/Ctrl-C leaves gracefully; each change is printed."
    })
final class NodeCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(names = "--name", required = true, paramLabel = "NAME", description = "Node name, [A-Za-z0-9._-].")
  String name = "";

  @Option(names = "--address", paramLabel = "URL", description = "Admin endpoint other nodes see.")
  String address = "";

  @Option(names = "--capability", paramLabel = "CAP", description = "Something this node can run; repeatable.")
  List<String> capabilities = new ArrayList<>();

  @Option(names = "--not-promotable", description = "Never become leader.")
  boolean notPromotable;

  @Option(names = "--acquire-delay", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Wait this long after the lease is free before taking it (lets preferred nodes win).")
  @Nullable Duration acquireDelay;

  @Option(names = "--heartbeat-interval", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 1s.")
  @Nullable Duration heartbeatInterval;

  @Option(names = "--self-fence-after", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 3s.")
  @Nullable Duration selfFenceAfter;

  @Option(names = "--stale-after", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 5s.")
  @Nullable Duration staleAfter;

  @Option(names = "--lease-ttl", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 5s.")
  @Nullable Duration leaseTtl;

  @Option(names = "--renew-interval", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 1s.")
  @Nullable Duration renewInterval;

  @Option(names = "--fence-after", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Default 4s.")
  @Nullable Duration fenceAfter;

  @Option(names = "--http", paramLabel = "PORT",
      description = {"Serve the admin API, console, /metrics and /health on this port (0: any free one).",
          "The node's address defaults to this endpoint."})
  @Nullable Integer httpPort;

  @Option(names = "--http-host", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address to bind the admin endpoint to. Default: ${DEFAULT-VALUE}; any other needs a token.")
  String httpHost = "127.0.0.1";

  @Option(names = "--http-token", paramLabel = "TOKEN", defaultValue = "${env:TENURE_HTTP_TOKEN}",
      description = "Bearer token every admin API call and /metrics must then carry (health checks and the console's"
          + " files need none). Default: $TENURE_HTTP_TOKEN.")
  @Nullable String httpToken;

  @Option(names = "--http-allowed-host", paramLabel = "NAME[:PORT]",
      description = "A name the admin endpoint also answers to, e.g. the Host a reverse proxy or tunnel forwards; repeatable."
          + " NAME alone allows any port. It always answers to its bind address with its port (on loopback also"
          + " localhost, 127.0.0.1 and [::1]) and to the host of --address; a request naming any other host gets 421.")
  List<String> httpAllowedHosts = new ArrayList<>();

  @Option(names = "--agents", paramLabel = "FAMILY=COUNT", converter = AgentsConverter.class,
      description = {"Run sample agents: COUNT agents of FAMILY (FAMILY://FAMILY-1 ...); repeatable.",
          "A count of 1 makes the singleton FAMILY://FAMILY."})
  List<AgentsConverter.SampleAgents> agents = new ArrayList<>();

  @Option(names = "--demo-workload",
      description = "Consume the demo's queues (orders: FIFO per key; ledger: exclusive), as 'tenure demo' nodes do.")
  boolean demoWorkload;

  @Option(names = "--chaos-workload",
      description = "Run the fault harness's workload and record it in its history ('tenure chaos' nodes do).")
  boolean chaosWorkload;

  @Option(names = "--chaos-unguarded", hidden = true,
      description = "Negative control for 'tenure chaos': register writes ignore the epoch.")
  boolean chaosUnguarded;

  @Option(names = "--chaos-work", hidden = true, paramLabel = "MS",
      description = "For 'tenure chaos': how long a handler of a FIFO message works, in milliseconds.")
  long chaosWorkMillis = io.tenure.chaos.ChaosWorkload.DEFAULT_WORK.toMillis();

  @Option(names = "--log-format", paramLabel = "FORMAT", converter = LogFormat.Converter.class,
      defaultValue = "logfmt",
      description = "Log lines on stderr as logfmt (default) or json; each names the node, its id and epoch.")
  LogFormat logFormat = LogFormat.LOGFMT;

  @Option(names = "--exit-with", paramLabel = "PID", hidden = true,
      description = "Leave when process PID ends (the demo's supervisor passes its own, so no node outlives it).")
  @Nullable Long exitWith;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Logging.format(logFormat);
    // Named before the store is opened, so even the pool's lines say which node they come from.
    LogContext.name(name);
    if (httpPort != null) {
      // Checked before the store is opened: a bad host, a missing token or a port in use changes nothing.
      try {
        AdminServer.checkBinding(httpHost, httpPort, httpToken, allowedHosts());
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new CommandFailure(ExitCodes.USAGE, e.getMessage());
      }
    }
    Store store = storeOptions.open(true);
    TenureNode node;
    AdminServer server = null;
    try {
      if (httpPort != null) {
        // Started before the node is built, so the node can advertise the port actually bound.
        server = AdminServer.builder(store).bind(httpHost, httpPort).token(httpToken).allowedHosts(allowedHosts())
            .build().start();
      }
      io.tenure.chaos.History history = null;
      Store nodeStore = store;
      if (chaosWorkload) {
        history = new io.tenure.chaos.History(storeOptions.url, storeOptions.prefix.value());
        history.create();
        // The harness sees every leader write: when it began, at which epoch, whether it applied.
        nodeStore = io.tenure.chaos.LeaderWrites.recorded(store, history, name);
      }
      node = configure(TenureNode.builder(nodeStore), store, out, server, history).build();
      if (history != null) {
        io.tenure.chaos.ChaosWorkload.sampleLeadership(node, history, name);
      }
      LogContext.nodeId(node.nodeId());
      if (server != null) {
        server.attach(node);
      }
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      store.close();
      throw e;
    }
    AdminServer http = server;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      say(out, "leaving", node.nodeId());
      node.close();
      if (http != null) {
        http.close();
      }
      store.close();
      stopped.countDown();
    }, "tenure-shutdown"));
    node.start();
    say(out, "joined as " + name, node.nodeId());
    if (exitWith != null) {
      ProcessHandle.of(exitWith).ifPresentOrElse(
          parent -> parent.onExit().thenRun(() -> System.exit(ExitCodes.OK)),
          () -> System.exit(ExitCodes.OK));
    }
    if (http != null) {
      say(out, "admin API and console on " + http.url(), node.nodeId());
    }
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCodes.OK;
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

  private TenureNode.Builder configure(TenureNode.Builder builder, Store store, PrintWriter out,
      @Nullable AdminServer server, io.tenure.chaos.@Nullable History history) {
    String advertised = address.isEmpty() && server != null ? server.advertisedUrl() : address;
    builder.name(name).address(advertised).promotable(!notPromotable);
    agents.forEach(sample -> builder.agentFamily(DemoWorkload.family(sample.family(), sample.count())));
    if (demoWorkload) {
      DemoWorkload.consume(builder, store);
    }
    if (history != null) {
      io.tenure.chaos.ChaosWorkload.register(builder, store, history, name, !chaosUnguarded,
          java.time.Duration.ofMillis(chaosWorkMillis));
    }
    capabilities.forEach(builder::capability);
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
    return builder.listener(new Printer(out));
  }

  private static void say(PrintWriter out, String what, String nodeId) {
    synchronized (out) {
      out.println(Instant.now() + " node " + nodeId + " " + what);
      out.flush();
    }
  }

  /** Prints each edge as one line, so an operator (or a script) can follow the node. */
  private final class Printer implements NodeListener {
    private final PrintWriter out;

    Printer(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void onPromoted(long epoch) {
      LogContext.epoch(epoch);
      say(out, "is leader at epoch " + epoch, "(" + name + ")");
    }

    @Override
    public void onDemoted(long epoch, DemotionReason reason) {
      say(out, "is no longer leader at epoch " + epoch + ": " + reason, "(" + name + ")");
    }

    @Override
    public void onSelfFenced() {
      say(out, "self-fenced: no heartbeat succeeded in time", "(" + name + ")");
    }

    @Override
    public void onUnfenced() {
      say(out, "heart-beats again", "(" + name + ")");
    }

    @Override
    public void onRejoined(String previousNodeId, String nodeId) {
      LogContext.nodeId(nodeId);
      say(out, "was ejected and rejoined as " + nodeId, previousNodeId);
    }
  }
}
