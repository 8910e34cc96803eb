package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.NodeStatus;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import io.tenure.WakeStats;
import io.tenure.spi.AgentStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Agent wake-ups (docs/AGENTS.md, "Wake-ups"; issue 20 §2) on real storage, two nodes in one JVM,
 * each on its own store as two processes would be: the leader's placements wake the sweep of every
 * node long before its interval, on every provider, also where the store cannot notify (SQLite,
 * MariaDB); a node without wake-ups finds its agents at its sweep.
 *
 * <p>The nodes sweep every {@link #LONG_SWEEP}, and no agent is wanted until both have swept once,
 * so after that only a wake-up or that interval can start one: the bound, {@link #BOUND}, is far
 * below it. A woken sweep still waits a tenth of the interval after the one before, as the pacer
 * says. Where the store notifies too (PostgreSQL, in memory), the notification may win: there the
 * datagram is asserted as read.
 */
public abstract class AgentWakeupComplianceTest extends FixtureSupport {
  private static final Duration LONG_SWEEP = Duration.ofSeconds(30);
  private static final Duration BOUND = Duration.ofSeconds(15);
  private static final Set<AgentUri> TWO =
      Set.of(AgentUri.parse("worker://one"), AgentUri.parse("worker://two"));

  private TablePrefix prefix;
  private final List<AutoCloseable> open = new ArrayList<>();
  // One instance serves every test of the class (FixtureSupport): set afresh before each.
  private AtomicReference<Set<AgentUri>> wanted;
  private Set<AgentUri> startedOnce;
  private CountDownLatch started;

  @BeforeEach
  void freshCluster() {
    prefix = freshPrefix();
    wanted = new AtomicReference<>(Set.of());
    startedOnce = ConcurrentHashMap.newKeySet();
    started = new CountDownLatch(TWO.size());
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
  }

  @Test
  void a_placement_by_the_leader_starts_its_agents_long_before_the_next_sweep() throws Exception {
    SweepReads readsA = new SweepReads();
    SweepReads readsB = new SweepReads();
    Tenure a = track(Tenure.on(readsA.around(fixture.open(prefix)), "a"));
    Tenure b = track(Tenure.on(readsB.around(fixture.open(prefix)), "b"));
    TenureNode nodeA = start(a.node().agentSweepInterval(LONG_SWEEP), "a");
    Await.until(BOUND, "a leads", nodeA::isLeader);
    TenureNode nodeB = start(b.node().agentSweepInterval(LONG_SWEEP), "b");
    bothSweptOnce(a.store(), readsA, readsB);

    wanted.set(TWO);

    assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS))
        .as("both agents started within %s though the nodes sweep every %s", BOUND, LONG_SWEEP)
        .isTrue();
    // Counted when start was called; the node lists an agent once its start returned.
    Await.until(BOUND, "one agent on each node", () -> runsOne(nodeA) && runsOne(nodeB));
    // No queue here: every datagram b reads is an agents-placed one.
    Await.until(BOUND, "b read the wake-up", () -> nodeB.wakeStats().received() >= 1);
    assertThat(nodeB.wakeStats().dropped()).isZero();
    assertThat(nodeB.wakeStats().woken()).as("no consumer woken").isZero();
  }

  @Test
  void nodes_built_on_bare_stores_wake_each_other_too() throws Exception {
    SweepReads readsA = new SweepReads();
    SweepReads readsB = new SweepReads();
    Store storeA = track(readsA.around(fixture.open(prefix)));
    Store storeB = track(readsB.around(fixture.open(prefix)));
    // As `tenure node` builds them: no Tenure, so no sender but the node's own.
    TenureNode nodeA = start(TenureNode.builder(storeA).agentSweepInterval(LONG_SWEEP), "a");
    Await.until(BOUND, "a leads", nodeA::isLeader);
    TenureNode nodeB = start(TenureNode.builder(storeB).agentSweepInterval(LONG_SWEEP), "b");
    bothSweptOnce(storeA, readsA, readsB);

    wanted.set(TWO);

    assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS))
        .as("both agents started within %s though the nodes sweep every %s", BOUND, LONG_SWEEP)
        .isTrue();
    Await.until(BOUND, "b read the wake-up", () -> nodeB.wakeStats().received() >= 1);
    Await.until(BOUND, "a counted its own sender's sends", () -> nodeA.wakeStats().sent() >= 1);
  }

  @Test
  void a_node_without_wake_ups_finds_its_agent_at_its_sweep() throws Exception {
    SweepReads readsA = new SweepReads();
    SweepReads readsB = new SweepReads();
    Tenure a = track(Tenure.on(readsA.around(fixture.open(prefix)), "a"));
    Tenure b = track(Tenure.on(readsB.around(fixture.open(prefix)), "b"));
    TenureNode nodeA = start(a.node().agentSweepInterval(LONG_SWEEP), "a");
    Await.until(BOUND, "a leads", nodeA::isLeader);
    TenureNode nodeB =
        start(b.node().wakeups(false, "127.0.0.1").agentSweepInterval(Duration.ofMillis(200)), "b");
    bothSweptOnce(a.store(), readsA, readsB);

    wanted.set(TWO);

    assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Await.until(BOUND, "b runs one agent", () -> runsOne(nodeB));
    assertThat(nodeB.settings().capabilities()).noneMatch(c -> c.startsWith("wake:"));
    assertThat(nodeB.wakeStats()).isEqualTo(WakeStats.off(nodeB.wakeStats().sent()));
  }

  /**
   * Both nodes are members and have swept once with nothing wanted: from here on, only a wake-up or
   * a whole interval brings their next sweep.
   */
  private static void bothSweptOnce(Store a, SweepReads readsA, SweepReads readsB) {
    Await.until(
        BOUND,
        "both nodes active",
        () ->
            a.membership().read().nodes().stream()
                    .filter(n -> n.status() == NodeStatus.ACTIVE)
                    .count()
                == 2);
    Await.until(BOUND, "both nodes swept once", () -> readsA.done() >= 1 && readsB.done() >= 1);
  }

  private static boolean runsOne(TenureNode node) {
    return node.runningAgents().size() == 1;
  }

  private TenureNode start(TenureNodeBuilder builder, String name) {
    TenureNode node =
        FastTimings.node(builder, name)
            .initialPlacementDelay(Duration.ZERO, Duration.ZERO)
            .agentFamily(new Workers())
            .build();
    track(node);
    node.start();
    return node;
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.add(closeable);
    return closeable;
  }

  /** The agents the test wants, none until it says; each start counted once. */
  private final class Workers implements AgentFamily {
    @Override
    public String scheme() {
      return "worker";
    }

    @Override
    public Set<AgentUri> wantedAgents() {
      return wanted.get();
    }

    @Override
    public Agent build(AgentUri uri) {
      return new Agent() {
        @Override
        public void start(AgentContext context) {
          // Counted once per agent: a restart (a node that self-fenced) proves nothing.
          if (startedOnce.add(context.uri())) {
            started.countDown();
          }
        }

        @Override
        public void stop(AgentContext context) {}
      };
    }
  }

  /** Counts the sweep reads ({@link AgentStore#readFor}) that returned, through a store. */
  private static final class SweepReads {
    private final AtomicInteger done = new AtomicInteger();

    int done() {
      return done.get();
    }

    Store around(Store store) {
      AgentStore agents =
          forward(
              AgentStore.class,
              store.agents(),
              (method, result) -> {
                if (method.equals("readFor")) {
                  done.incrementAndGet();
                }
              });
      return forward(Store.class, store, (method, result) -> {}, agents);
    }

    private interface After {
      void returned(String method, Object result);
    }

    private static <T> T forward(Class<T> type, T target, After after) {
      return forward(type, target, after, null);
    }

    /** A forwarding proxy; with {@code agents}, {@code agents()} answers it instead. */
    private static <T> T forward(
        Class<T> type, T target, After after, @Nullable AgentStore agents) {
      return type.cast(
          Proxy.newProxyInstance(
              type.getClassLoader(),
              new Class<?>[] {type},
              (proxy, method, args) -> {
                if (agents != null && method.getName().equals("agents")) {
                  return agents;
                }
                try {
                  Object result = method.invoke(target, args);
                  after.returned(method.getName(), result);
                  return result;
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              }));
    }
  }
}
