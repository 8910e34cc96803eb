package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.TestSettings;
import io.tenure.spi.LeaderFence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The node sweep applied to a real (in-memory) store, one tick at a time. */
class AgentRuntimeTest {
  private static final AgentUri AGENT = AgentUri.parse("p://one");

  private final io.tenure.inmemory.InMemoryDatabase database =
      io.tenure.inmemory.InMemoryDatabase.fresh();
  private final InMemoryStore store = InMemoryStore.builder().database(database).build();
  private final List<String> calls = new ArrayList<>();
  private final LeaderFence fence =
      new LeaderFence(
          "leader", store.leases().acquire("leader", Duration.ofMinutes(5)).orElseThrow().epoch());

  private AgentRuntime runtime(String nodeId) {
    NodeSettings settings =
        TestSettings.node()
            .capabilities("p")
            .agents(TestSettings.agents(Duration.ofSeconds(5)))
            .build();
    AgentFamily family =
        new AgentFamily() {
          @Override
          public String scheme() {
            return "p";
          }

          @Override
          public Set<AgentUri> wantedAgents() {
            return Set.of(AGENT);
          }

          @Override
          public Agent build(AgentUri uri) {
            return new Agent() {
              @Override
              public void start(AgentContext context) {
                calls.add("start " + context.nodeId() + " epoch " + context.ownershipEpoch());
              }

              @Override
              public void stop(AgentContext context) {
                calls.add("stop " + context.nodeId());
              }
            };
          }
        };
    return new AgentRuntime(
        store.agents(),
        settings,
        Map.of("p", family),
        () -> nodeId,
        store.events(),
        System::nanoTime);
  }

  private List<ClusterEvent.Kind> events() {
    return store.events().recent(100).stream().map(ClusterEvent::kind).toList().reversed();
  }

  @Test
  void a_placed_agent_is_claimed_and_started_and_a_lost_row_is_restored_by_its_runner() {
    AgentRuntime n1 = runtime("n1");
    store.agents().place(AGENT, "n1", fence);

    n1.sweepTick();
    assertThat(n1.running()).containsExactly(AGENT);
    store.agents().removeOwned(AGENT, "n1");
    n1.sweepTick();

    assertThat(store.agents().read(AGENT).orElseThrow().owner()).isEqualTo("n1");
    assertThat(calls).containsExactly("start n1 epoch 1");
    assertThat(events())
        .containsExactly(ClusterEvent.Kind.AGENT_STARTED, ClusterEvent.Kind.AGENT_RESTORED);
  }

  @Test
  void an_agent_whose_row_was_freed_by_hand_and_claimed_anew_restarts_with_the_new_epoch() {
    AgentRuntime n1 = runtime("n1");
    store.agents().place(AGENT, "n1", fence);
    n1.sweepTick();
    // An operator clears the owner while the agent runs: the next claim issues epoch 2.
    store.agents().upsert(new io.tenure.AgentAssignment(AGENT, null, "n1", 1, false, null));

    n1.sweepTick();
    n1.sweepTick();

    assertThat(calls).containsExactly("start n1 epoch 1", "stop n1", "start n1 epoch 2");
    assertThat(store.agents().stillOwner(AGENT, "n1", 2)).isTrue();
  }

  @Test
  void a_runner_restoring_a_row_an_operator_deleted_keeps_running_at_its_epoch() {
    AgentRuntime n1 = runtime("n1");
    store.agents().place(AGENT, "n1", fence);
    n1.sweepTick();
    n1.stop(AGENT, true);
    n1.sweepTick();
    database.deleteAgentRows(io.tenure.spi.TablePrefix.DEFAULT, List.of(AGENT));

    n1.sweepTick();

    assertThat(store.agents().read(AGENT).orElseThrow().epoch())
        .as("the epoch it runs at")
        .isEqualTo(2);
    assertThat(store.agents().stillOwner(AGENT, "n1", 2)).isTrue();
    assertThat(calls).containsExactly("start n1 epoch 1", "stop n1", "start n1 epoch 2");
  }

  @Test
  void stop_all_stops_every_agent_at_once_not_one_after_another() throws Exception {
    int count = 5;
    java.util.concurrent.CountDownLatch allStopping =
        new java.util.concurrent.CountDownLatch(count);
    List<Boolean> metAtTheLatch = java.util.Collections.synchronizedList(new ArrayList<>());
    Set<AgentUri> five = new java.util.HashSet<>();
    for (int i = 0; i < count; i++) {
      five.add(AgentUri.parse("q://agent-" + i));
    }
    AgentFamily family =
        new AgentFamily() {
          @Override
          public String scheme() {
            return "q";
          }

          @Override
          public Set<AgentUri> wantedAgents() {
            return five;
          }

          @Override
          public Agent build(AgentUri uri) {
            return new Agent() {
              @Override
              public void start(AgentContext context) {}

              @Override
              public void stop(AgentContext context) throws InterruptedException {
                // Opens only when all five stops have begun: one after another, the first would
                // wait.
                allStopping.countDown();
                metAtTheLatch.add(allStopping.await(5, java.util.concurrent.TimeUnit.SECONDS));
              }
            };
          }
        };
    NodeSettings settings = TestSettings.node().capabilities("q").build();
    AgentRuntime runtime =
        new AgentRuntime(
            store.agents(),
            settings,
            Map.of("q", family),
            () -> "n1",
            store.events(),
            System::nanoTime);
    five.forEach(uri -> store.agents().place(uri, "n1", fence));
    runtime.sweepTick();
    assertThat(runtime.running()).hasSize(count);

    runtime.stopAll(true);

    assertThat(metAtTheLatch).hasSize(count).containsOnly(true);
    assertThat(runtime.running()).isEmpty();
  }

  @Test
  void a_hand_off_stops_then_releases_then_the_target_claims_with_the_next_epoch() {
    AgentRuntime n1 = runtime("n1");
    AgentRuntime n2 = runtime("n2");
    store.agents().place(AGENT, "n1", fence);
    n1.sweepTick();

    store.agents().place(AGENT, "n2", fence);
    n2.sweepTick();
    assertThat(n2.running()).as("n2 may not start it while n1 owns it").isEmpty();
    n1.sweepTick();
    n2.sweepTick();

    assertThat(n1.running()).isEmpty();
    assertThat(n2.running()).containsExactly(AGENT);
    assertThat(calls).containsExactly("start n1 epoch 1", "stop n1", "start n2 epoch 2");
    assertThat(events())
        .containsExactly(
            ClusterEvent.Kind.AGENT_STARTED,
            ClusterEvent.Kind.AGENT_STOPPED,
            ClusterEvent.Kind.AGENT_RELEASED,
            ClusterEvent.Kind.AGENT_STARTED);
  }
}
