package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentUri;
import io.tenure.HeartbeatSettings;
import io.tenure.NodeInfo;
import io.tenure.NodeSettings;
import io.tenure.NodeStatus;
import io.tenure.StoreUnavailableException;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.internal.TestSettings;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.NewNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A node judges others' heartbeats only while its own go through steadily (SPEC §3.4): a node that
 * resumes after a freeze, or after a stall that held every heartbeat back, first heart-beats for
 * two intervals, so the others it would find stale have had the same chance.
 */
class MembershipKeeperTest {
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  private static final Duration STALE = Duration.ofSeconds(5);

  private final ManualTime time = new ManualTime();
  private final InMemoryStore store = InMemoryStore.builder().clock(time.databaseClock()).build();
  private volatile boolean heartbeatsFail;
  private final NodeSettings settings =
      TestSettings.node()
          .name("me")
          .heartbeat(new HeartbeatSettings(HEARTBEAT, Duration.ofSeconds(3), STALE))
          .build();

  private MembershipStore failing(MembershipStore real) {
    return (MembershipStore)
        Proxy.newProxyInstance(
            MembershipStore.class.getClassLoader(),
            new Class<?>[] {MembershipStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("heartbeat") && heartbeatsFail) {
                throw new StoreUnavailableException("heartbeats fail in this test", null);
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private MembershipKeeper joined() {
    MembershipKeeper keeper =
        new MembershipKeeper(
            failing(store.membership()),
            settings,
            time.ticker(),
            new Listeners(List.of()),
            new History(store.events()));
    keeper.join();
    return keeper;
  }

  /** Heart-beats once per interval for {@code intervals} intervals. */
  private void beat(MembershipKeeper keeper, int intervals) {
    for (int i = 0; i < intervals; i++) {
      time.advance(HEARTBEAT);
      keeper.heartbeat();
    }
  }

  @Test
  void a_node_is_steady_two_intervals_after_it_joined_and_while_it_heart_beats() {
    MembershipKeeper keeper = joined();
    assertThat(keeper.steady()).isFalse();
    beat(keeper, 1);
    assertThat(keeper.steady()).isFalse();
    beat(keeper, 1);
    assertThat(keeper.steady()).isTrue();
    beat(keeper, 10);
    assertThat(keeper.steady()).isTrue();
  }

  @Test
  void a_failed_heartbeat_makes_it_unsteady_until_two_intervals_of_heartbeats_went_through_again() {
    MembershipKeeper keeper = joined();
    beat(keeper, 3);
    heartbeatsFail = true;
    beat(keeper, 1);
    assertThat(keeper.steady()).isFalse();
    heartbeatsFail = false;
    beat(keeper, 1);
    assertThat(keeper.steady()).isFalse();
    beat(keeper, 2);
    assertThat(keeper.steady()).isTrue();
  }

  @Test
  void after_a_freeze_the_first_heartbeat_starts_a_new_run_and_a_stale_latest_one_is_unsteady() {
    MembershipKeeper keeper = joined();
    beat(keeper, 3);
    time.advance(Duration.ofSeconds(12)); // frozen: no heartbeat at all
    assertThat(keeper.steady()).as("its latest heartbeat is old").isFalse();

    keeper.heartbeat();
    assertThat(keeper.steady()).isFalse();
    beat(keeper, 1);
    assertThat(keeper.steady()).isFalse();
    beat(keeper, 1);
    assertThat(keeper.steady()).isTrue();
  }

  @Test
  void
      a_leader_resumed_from_a_freeze_declares_nobody_dead_whose_heartbeat_the_same_stall_held_back() {
    MembershipKeeper keeper = joined();
    MembershipStore m = store.membership();
    m.join(new NewNode("other", "other", "", Set.of(), Duration.ofSeconds(3)), m.read().version());
    m.changeStatus("other", NodeStatus.ACTIVE, m.read().version());
    LeaderFence fence =
        new LeaderFence(
            keeper.nodeId(),
            store.leases().acquire(keeper.nodeId(), Duration.ofMinutes(5)).orElseThrow().epoch());
    LeaderDuties duties =
        new LeaderDuties(m, store.events(), settings, new History(store.events()), keeper::steady);
    beat(keeper, 3);

    // Everyone's heartbeats stall for 12 s (on SQLite: a frozen process held the write lock).
    time.advance(Duration.ofSeconds(12));
    keeper.heartbeat();
    duties.tick(fence);
    assertThat(status("other"))
        .as("the other node had no chance to heartbeat yet")
        .isEqualTo(NodeStatus.ACTIVE);
    m.heartbeat("other"); // it does, as soon as the stall ends
    beat(keeper, 2);
    duties.tick(fence);
    assertThat(status("other")).isEqualTo(NodeStatus.ACTIVE);

    // A node that really stops heart-beating is still declared dead once it is stale.
    beat(keeper, (int) STALE.toSeconds() + 1);
    duties.tick(fence);
    assertThat(status("other")).isEqualTo(NodeStatus.DEAD);
  }

  private NodeStatus status(String nodeId) {
    return store.membership().read().nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst()
        .map(NodeInfo::status)
        .orElseThrow();
  }

  /** This test's selfFenceAfter 3 s, renew interval 1 s, sweep 1 s, stop deadline 10 s. */
  private static final Duration SELF_FENCE_SWEEP_STOP = Duration.ofSeconds(3 + 1 + 10);

  /** The watchdog notices the self-fence up to a twentieth of the renew interval late. */
  private static final Duration WATCHDOG = Duration.ofMillis(50);

  @Test
  void
      the_published_window_covers_the_self_fence_the_watchdog_the_sweep_the_stop_and_a_slow_clock() {
    MembershipKeeper keeper = joined();
    Duration measured = SELF_FENCE_SWEEP_STOP.plus(WATCHDOG);

    NodeInfo row = row(keeper.nodeId());

    assertThat(MembershipKeeper.watchdogInterval(settings)).isEqualTo(WATCHDOG);
    assertThat(row.selfFenceAfter()).isEqualTo(MembershipKeeper.mayRunFor(settings));
    assertThat(row.selfFenceAfter()).isEqualTo(measured.plus(measured.dividedBy(100)));
  }

  @Test
  void the_leader_frees_a_dead_nodes_agent_only_once_a_slow_clocked_stop_has_returned() {
    MembershipKeeper keeper = joined(); // its last heartbeat: the join
    String dead = keeper.nodeId();
    AgentStore agents = store.agents();
    AgentUri uri = AgentUri.parse("projection://orders");
    LeaderFence fence =
        new LeaderFence(
            "leader",
            store.leases().acquire("leader", Duration.ofMinutes(5)).orElseThrow().epoch());
    assertThat(agents.place(uri, dead, fence)).isEqualTo(AssignmentWrite.APPLIED);
    agents.claim(uri, dead).orElseThrow();

    // The node notices its self-fence a watchdog period late and measures it all on a clock 1 %
    // slow: until 14.05 s plus 1 % by the database clock its agent's stop may still be running.
    time.advance(
        SELF_FENCE_SWEEP_STOP.plus(WATCHDOG).multipliedBy(101).dividedBy(100).minusNanos(1));
    assertThat(agents.releaseFromDeadOwner(uri, dead, fence))
        .as("the dead node may still be stopping it")
        .isEqualTo(AssignmentWrite.NOT_ELIGIBLE);
    time.advance(Duration.ofNanos(1));

    assertThat(agents.releaseFromDeadOwner(uri, dead, fence)).isEqualTo(AssignmentWrite.APPLIED);
  }

  private NodeInfo row(String nodeId) {
    return store.membership().read().nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst()
        .orElseThrow();
  }
}
