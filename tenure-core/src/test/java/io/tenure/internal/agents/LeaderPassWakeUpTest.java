package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Agent;
import io.tenure.AgentAssignment;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.NodeSettings;
import io.tenure.NodeStatus;
import io.tenure.inmemory.InMemoryDatabase;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.TestSettings;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The leader's pass around a dead node's may-run deadline, on the in-memory store with its database
 * clock driven by the test: when the next pass is due, and how the freed rows' targets hear of
 * them.
 */
class LeaderPassWakeUpTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration MAY_RUN = Duration.ofSeconds(3);
  private static final List<AgentUri> AGENTS =
      List.of(AgentUri.parse("p://a"), AgentUri.parse("p://b"), AgentUri.parse("p://c"));

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final InMemoryStore store =
      InMemoryStore.builder().database(InMemoryDatabase.fresh()).clock(now::get).build();
  private final LeaderFence fence =
      new LeaderFence(
          "leader", store.leases().acquire("leader", Duration.ofMinutes(5)).orElseThrow().epoch());
  private final List<Long> heard = new CopyOnWriteArrayList<>();

  private AgentRuntime leader() {
    NodeSettings settings = TestSettings.node().capabilities("p").build();
    AgentFamily family =
        new AgentFamily() {
          @Override
          public String scheme() {
            return "p";
          }

          @Override
          public Set<AgentUri> wantedAgents() {
            return Set.copyOf(AGENTS);
          }

          @Override
          public Agent build(AgentUri uri) {
            return new Agent() {
              @Override
              public void start(AgentContext context) {}

              @Override
              public void stop(AgentContext context) {}
            };
          }
        };
    return new AgentRuntime(
        store.agents(), settings, Map.of("p", family), () -> "leader", store.events(), () -> 0L);
  }

  private void join(String id) {
    store.membership().joinQueued(new NewNode(id, id, "", Set.of("p"), MAY_RUN));
    store.membership().changeStatusQueued(id, NodeStatus.ACTIVE);
  }

  @Test
  void a_dead_nodes_agents_are_retargeted_then_freed_at_its_deadline_with_one_wake_up_for_all() {
    join("dead");
    join("live");
    for (AgentUri uri : AGENTS) {
      store.agents().place(uri, "dead", fence);
      store.agents().claim(uri, "dead").orElseThrow();
    }
    store.membership().changeStatusQueued("dead", NodeStatus.LEAVING);
    store.agents().listen(heard::add).orElseThrow();
    AgentRuntime leader = leader();

    now.set(T0.plusSeconds(1));
    long next = leader.leaderPass(fence, store.membership().read());

    assertThat(store.agents().readAll())
        .as("retargeted, still owned: the dead node may still run them")
        .allSatisfy(row -> assertThat(row.owner()).isEqualTo("dead"))
        .allSatisfy(row -> assertThat(row.target()).isEqualTo("live"));
    assertThat(next)
        .as(
            "the next pass is due at the may-run deadline, 2 s after this read (before the live node's heartbeat turns stale)")
        .isEqualTo(MAY_RUN.minusSeconds(1).plus(PassDeadlines.MARGIN).toNanos());
    heard.clear();

    now.set(T0.plus(MAY_RUN).plus(PassDeadlines.MARGIN));
    leader.leaderPass(fence, store.membership().read());

    assertThat(store.agents().readAll())
        .extracting(AgentAssignment::owner)
        .as("freed")
        .containsOnlyNulls();
    assertThat(store.agents().readAll()).extracting(AgentAssignment::target).containsOnly("live");
    assertThat(heard).as("one wake-up for the three rows freed").containsExactly(fence.epoch());
  }
}
