package io.tenure.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentSettings;
import io.tenure.AgentUri;
import io.tenure.TenureNode;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Agent convergence: N nodes simulated in one JVM (each its own store over one shared connection
 * pool) and A agents of one family, default timings. Measures cold convergence (from the first node
 * start until every agent runs exactly once), the leader's writes once converged (should be 0:
 * passes are O(changes)), and the time to run every agent once again after one node crashes.
 *
 * <p>Usage: {@code ConvergenceBench --store URL [--nodes 100] [--agents 10000] [--bound 120]
 * [--moves 20] [--placement-quiet 500] [--reconciliations 50] [--self-fence-ms 3000] [--stale-ms
 * 5000] [--stop-timeout-ms 2000] [--wakeups on]}: the three before the last shorten the crash
 * path's floor (a dead node's agents are freed only after its last heartbeat plus its published
 * may-run time); {@code --wakeups off} builds every node without wake-ups, for comparison
 */
public final class ConvergenceBench {
  private final Map<AgentUri, Set<String>> runners = new ConcurrentHashMap<>();

  /** Rebalancing moves per leader pass; the node default unless --moves is given. */
  private static final int[] MOVES = {AgentSettings.DEFAULT_MAX_MOVES_PER_PASS};

  /** The initial placement quiet period; the node default unless --placement-quiet MS is given. */
  private static final Duration[] QUIET = {AgentSettings.DEFAULT_INITIAL_PLACEMENT_QUIET};

  /** Actions per sweep; the node default unless --reconciliations is given. */
  private static final int[] RECONCILIATIONS = {AgentSettings.DEFAULT_MAX_RECONCILIATIONS_PER_TICK};

  /** selfFenceAfter, staleAfter and the agents' stop deadline, in ms; 0 for the node default. */
  private static final long[] CRASH_SETTINGS = {0, 0, 0};

  /** Whether the nodes take wake-ups (the node default) or not (--wakeups off). */
  private static final boolean[] WAKEUPS = {true};

  private final AtomicInteger duplicates = new AtomicInteger();

  public static void main(String[] args) throws Exception {
    String url = null;
    int nodes = 100;
    int agents = 10_000;
    Duration bound = Duration.ofSeconds(120);
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--moves" -> MOVES[0] = Integer.parseInt(args[i + 1]);
        case "--reconciliations" -> RECONCILIATIONS[0] = Integer.parseInt(args[i + 1]);
        case "--self-fence-ms" -> CRASH_SETTINGS[0] = Long.parseLong(args[i + 1]);
        case "--stale-ms" -> CRASH_SETTINGS[1] = Long.parseLong(args[i + 1]);
        case "--stop-timeout-ms" -> CRASH_SETTINGS[2] = Long.parseLong(args[i + 1]);
        case "--wakeups" -> WAKEUPS[0] = onOff(args[i + 1]);
        case "--placement-quiet" -> QUIET[0] = Duration.ofMillis(Long.parseLong(args[i + 1]));
        case "--store" -> url = args[i + 1];
        case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
        case "--agents" -> agents = Integer.parseInt(args[i + 1]);
        case "--bound" -> bound = Duration.ofSeconds(Long.parseLong(args[i + 1]));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (url == null) {
      url = "sqlite:" + Files.createTempDirectory("tenure-conv-").resolve("c.db");
    }
    new ConvergenceBench().run(url, nodes, agents, bound);
  }

  private static boolean onOff(String value) {
    return switch (value) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("--wakeups takes on or off, was " + value);
    };
  }

  private void run(String url, int nodeCount, int agentCount, Duration bound) throws Exception {
    TablePrefix prefix =
        TablePrefix.of("conv" + UUID.randomUUID().toString().substring(0, 6) + "_");
    Set<AgentUri> wanted =
        IntStream.range(0, agentCount)
            .mapToObj(i -> AgentUri.parse("bench://agent-" + i))
            .collect(Collectors.toSet());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url.startsWith("sqlite:") ? "jdbc:sqlite:" + url.substring(7) : url);
    config.setMaximumPoolSize(url.startsWith("sqlite:") ? 8 : 40);
    HikariConfig coordinationConfig = new HikariConfig();
    coordinationConfig.setJdbcUrl(config.getJdbcUrl());
    coordinationConfig.setMaximumPoolSize(url.startsWith("sqlite:") ? 4 : 20);
    coordinationConfig.setPoolName("coordination");
    List<TenureNode> nodes = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Store> stores = new ArrayList<>();
    HikariDataSource pool = new HikariDataSource(config);
    HikariDataSource coordination = new HikariDataSource(coordinationConfig);
    try {
      measure(nodeCount, agentCount, bound, wanted, prefix, pool, coordination, nodes, stores);
    } finally {
      // The nodes leave before the pool they share closes.
      for (TenureNode node : nodes) {
        try {
          node.close();
        } catch (RuntimeException ignored) {
          // best effort: the tables are dropped next anyway
        }
      }
      pool.close();
      coordination.close();
      dropTables(url, prefix);
    }
  }

  private void measure(
      int nodeCount,
      int agentCount,
      Duration bound,
      Set<AgentUri> wanted,
      TablePrefix prefix,
      HikariDataSource pool,
      HikariDataSource coordination,
      List<TenureNode> nodes,
      List<Store> stores)
      throws InterruptedException {
    // Opening a store (pools, schema check) is process start-up, done before the clock starts.
    List<TenureNode> built = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      // Heartbeats and lease renewals get their own connections, as a real node's coordination
      // pool gives them; the simulated nodes share them.
      Store store =
          JdbcStore.builder()
              .dataSource(pool)
              .coordinationDataSource(coordination)
              .prefix(prefix)
              .build();
      stores.add(store);
      // Three candidates: on PostgreSQL each candidate holds a session-lock connection, and here
      // all nodes share one pool (real processes each have their own).
      built.add(
          crashSettings(TenureNode.builder(store))
              .name("n" + i)
              .promotable(i < 3)
              .agentCaps(MOVES[0], RECONCILIATIONS[0])
              .initialPlacementDelay(
                  QUIET[0],
                  QUIET[0].compareTo(AgentSettings.DEFAULT_INITIAL_PLACEMENT_MAX_DELAY) > 0
                      ? QUIET[0]
                      : AgentSettings.DEFAULT_INITIAL_PLACEMENT_MAX_DELAY)
              .agentFamily(family(wanted))
              .wakeups(WAKEUPS[0], io.tenure.QueueSettings.DEFAULT_WAKE_HOST)
              .build());
    }
    long start = System.nanoTime();
    Thread progress = Thread.ofPlatform().daemon().start(() -> progress(start, agentCount, nodes));
    // A fleet's nodes join side by side, not one after another.
    List<java.util.concurrent.Future<?>> starting = new ArrayList<>();
    try (java.util.concurrent.ExecutorService starter =
        java.util.concurrent.Executors.newFixedThreadPool(16)) {
      for (TenureNode node : built) {
        starting.add(
            starter.submit(
                () -> {
                  node.start();
                  nodes.add(node);
                  return null;
                }));
      }
    }
    for (java.util.concurrent.Future<?> future : starting) {
      try {
        future.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("a node did not start", e.getCause());
      }
    }
    long started = System.nanoTime();
    boolean converged = await(bound, () -> runningOnce(agentCount));
    long cold = System.nanoTime();
    progress.interrupt();
    String coldFigure =
        converged
            ? ms(cold - start)
                + " from the first node's start, "
                + ms(cold - started)
                + " from the last one's"
            : "not within " + bound;
    System.out.printf(
        Locale.ROOT,
        "cold: %d nodes, %d agents, %d moves per pass, %d actions per sweep, placement quiet %d ms:"
            + " all nodes started after %s, every agent once after %s%n",
        nodeCount,
        agentCount,
        MOVES[0],
        RECONCILIATIONS[0],
        QUIET[0].toMillis(),
        ms(started - start),
        coldFigure);
    if (!converged) {
      return;
    }
    Store observer = stores.get(0);
    long claimsBefore = claims(observer);
    Thread.sleep(5_000);
    System.out.printf(
        Locale.ROOT,
        "steady: claims in the 5 s after convergence (0 = no more hand-offs): %d%n",
        claims(observer) - claimsBefore);
    // A node that does not lead: this measures moving a dead node's agents, not a fail-over.
    TenureNode victim =
        nodes.stream().filter(n -> !n.isLeader()).reduce((first, second) -> second).orElseThrow();
    String victimId = victim.nodeId();
    Set<AgentUri> lost = victim.runningAgents();
    long crash = System.nanoTime();
    crash(victim, stores.get(built.indexOf(victim)));
    // The floor (SPEC §5.3): no other node may start them before the victim's last heartbeat plus
    // the may-run time it published, by the database clock.
    io.tenure.spi.MembershipView view = observer.membership().read();
    long floor =
        System.nanoTime()
            - crash
            + view.nodes().stream()
                .filter(n -> n.nodeId().equals(victimId))
                .findFirst()
                .map(n -> Duration.between(view.readAt(), n.heartbeatAt().plus(n.selfFenceAfter())))
                .orElse(Duration.ZERO)
                .toNanos();
    boolean healed =
        await(
            bound,
            () ->
                lost.stream()
                        .allMatch(
                            u -> {
                              Set<String> on = runners.get(u);
                              return on.size() == 1 && !on.contains(victimId);
                            })
                    && runningOnce(agentCount));
    System.out.printf(
        Locale.ROOT,
        "crash of 1 of %d nodes: its %d agents run again after %s (its may-run deadline passed"
            + " after %s)%n",
        nodeCount,
        lost.size(),
        healed ? ms(System.nanoTime() - crash) : "not within " + bound,
        ms(floor));
    System.out.printf(Locale.ROOT, "duplicate starts seen: %d%n", duplicates.get());
  }

  private static io.tenure.TenureNodeBuilder crashSettings(io.tenure.TenureNodeBuilder builder) {
    if (CRASH_SETTINGS[0] > 0) {
      builder.selfFenceAfter(Duration.ofMillis(CRASH_SETTINGS[0]));
    }
    if (CRASH_SETTINGS[1] > 0) {
      builder.staleAfter(Duration.ofMillis(CRASH_SETTINGS[1]));
    }
    if (CRASH_SETTINGS[2] > 0) {
      builder.agentTimeouts(
          AgentSettings.DEFAULT_START_TIMEOUT, Duration.ofMillis(CRASH_SETTINGS[2]));
    }
    return builder;
  }

  /**
   * Once a second until interrupted: how many agents run once, how many copies run, the leaders.
   */
  private void progress(long start, int agentCount, List<TenureNode> nodes) {
    try {
      while (true) {
        Thread.sleep(1_000);
        long once = 0;
        long copies = 0;
        for (Set<String> on : runners.values()) {
          int size = on.size();
          once += size == 1 ? 1 : 0;
          copies += size;
        }
        List<String> leaders =
            nodes.stream().filter(TenureNode::isLeader).map(TenureNode::nodeId).toList();
        System.out.printf(
            Locale.ROOT,
            "  %s: %d nodes started, %d of %d agents run once, %d copies, leader %s%n",
            ms(System.nanoTime() - start),
            nodes.size(),
            once,
            agentCount,
            copies,
            leaders);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes the node's store under it: heartbeats and renewals fail, as when its process dies. */
  private static void crash(TenureNode victim, Store store) {
    store.close();
  }

  private boolean runningOnce(int agentCount) {
    return runners.size() == agentCount && runners.values().stream().allMatch(on -> on.size() == 1);
  }

  /** Sum of ownership epochs: grows by one with every claim, so its growth counts hand-offs. */
  private static long claims(Store observer) {
    return observer.agents().readAll().stream().mapToLong(row -> row.epoch()).sum();
  }

  private AgentFamily family(Set<AgentUri> wanted) {
    return new AgentFamily() {
      @Override
      public String scheme() {
        return "bench";
      }

      @Override
      public Set<AgentUri> wantedAgents() {
        return wanted;
      }

      @Override
      public Agent build(AgentUri uri) {
        return new Agent() {
          @Override
          public void start(AgentContext context) {
            Set<String> on = runners.computeIfAbsent(uri, u -> ConcurrentHashMap.newKeySet());
            on.add(context.nodeId());
            if (on.size() > 1) {
              duplicates.incrementAndGet();
            }
          }

          @Override
          public void stop(AgentContext context) {
            runners.get(uri).remove(context.nodeId());
          }
        };
      }
    };
  }

  private static boolean await(Duration bound, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
  }

  private static void dropTables(String url, TablePrefix prefix) throws Exception {
    if (!url.startsWith("jdbc:")) {
      return;
    }
    try (Connection c = java.sql.DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          c.getMetaData()
              .getTables(c.getCatalog(), null, prefix.value() + "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_NAME"));
        }
      }
      for (String table : tables) {
        s.execute("DROP TABLE " + table);
      }
    }
  }
}
