package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §3: node rows, the membership version, heartbeats, death and cleanup. */
public abstract class MembershipComplianceTest extends FixtureSupport {
  private static final Duration FENCE = Duration.ofSeconds(3);
  private static final Duration LONG_TTL = Duration.ofMinutes(5);

  private Store store;
  private MembershipStore membership;

  @BeforeEach
  void openStore() {
    store = freshStore();
    membership = store.membership();
  }

  private static NewNode node(String name) {
    return new NewNode(
        UUID.randomUUID().toString(),
        name,
        "http://127.0.0.1:7000",
        Set.of("orders", "billing"),
        FENCE);
  }

  private String joined(String name) {
    NewNode node = node(name);
    assertThat(membership.join(node, membership.read().version()))
        .isEqualTo(MembershipWrite.APPLIED);
    return node.nodeId();
  }

  private NodeInfo row(String nodeId) {
    return membership.read().nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst()
        .orElseThrow();
  }

  private String activeLeader() {
    String leader = joined("leader");
    membership.changeStatus(leader, NodeStatus.ACTIVE, membership.read().version());
    return leader;
  }

  private LeaderFence leaderFence(String nodeId) {
    Lease lease = store.leases().acquire(nodeId, LONG_TTL).orElseThrow();
    return new LeaderFence(nodeId, lease.epoch());
  }

  @Test
  void an_empty_cluster_reads_version_0_and_no_nodes() {
    MembershipView view = membership.read();
    assertThat(view.version()).isZero();
    assertThat(membership.version()).isZero();
    assertThat(view.nodes()).isEmpty();
  }

  @Test
  void a_join_inserts_a_joining_row_stamped_by_the_database_and_bumps_the_version_by_one() {
    NewNode node = node("api-1");
    Instant before = store.now();

    assertThat(membership.join(node, 0)).isEqualTo(MembershipWrite.APPLIED);

    MembershipView view = membership.read();
    assertThat(view.version()).isEqualTo(1);
    assertThat(membership.version()).isEqualTo(1);
    NodeInfo row = view.nodes().get(0);
    assertThat(row.nodeId()).isEqualTo(node.nodeId());
    assertThat(row.name()).isEqualTo("api-1");
    assertThat(row.address()).isEqualTo("http://127.0.0.1:7000");
    assertThat(row.capabilities()).containsExactlyInAnyOrder("orders", "billing");
    assertThat(row.status()).isEqualTo(NodeStatus.JOINING);
    assertThat(row.selfFenceAfter()).isEqualTo(FENCE);
    assertThat(row.startedAt())
        .isEqualTo(row.heartbeatAt())
        .isAfterOrEqualTo(before.minusMillis(1));
  }

  @Test
  void a_join_with_a_stale_version_fails_and_changes_nothing() {
    joined("a");

    assertThat(membership.join(node("b"), 0)).isEqualTo(MembershipWrite.STALE_VERSION);

    assertThat(membership.read().version()).isEqualTo(1);
    assertThat(membership.read().nodes()).hasSize(1);
  }

  @Test
  void a_status_change_with_a_stale_version_fails_and_changes_nothing() {
    String a = joined("a");
    joined("b");

    assertThat(membership.changeStatus(a, NodeStatus.ACTIVE, 1))
        .isEqualTo(MembershipWrite.STALE_VERSION);

    assertThat(membership.read().version()).isEqualTo(2);
    assertThat(row(a).status()).isEqualTo(NodeStatus.JOINING);
  }

  @Test
  void a_duplicate_join_fails_and_changes_nothing() {
    NewNode node = node("a");
    membership.join(node, 0);

    assertThat(membership.join(node, 1)).isEqualTo(MembershipWrite.DUPLICATE_NODE);

    assertThat(membership.read().version()).isEqualTo(1);
    assertThat(membership.read().nodes()).hasSize(1);
  }

  @Test
  void
      twenty_concurrent_joins_from_one_read_version_exactly_one_wins_and_the_rest_win_by_retrying() {
    int nodes = 20;
    long readVersion = membership.read().version();
    List<NewNode> joining = new ArrayList<>();
    List<Callable<MembershipWrite>> first = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      NewNode node = node("n" + i);
      joining.add(node);
      first.add(() -> membership.join(node, readVersion));
    }

    List<MembershipWrite> results = Race.run(first);

    assertThat(results).filteredOn(r -> r == MembershipWrite.APPLIED).hasSize(1);
    assertThat(results)
        .filteredOn(r -> r != MembershipWrite.APPLIED)
        .containsOnly(MembershipWrite.STALE_VERSION);
    List<Callable<MembershipWrite>> retries = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      if (results.get(i) != MembershipWrite.APPLIED) {
        NewNode node = joining.get(i);
        retries.add(
            () -> {
              MembershipWrite result;
              do {
                result = membership.join(node, membership.read().version());
              } while (result == MembershipWrite.STALE_VERSION);
              return result;
            });
      }
    }
    assertThat(Race.run(retries)).containsOnly(MembershipWrite.APPLIED);
    assertThat(membership.read().version()).isEqualTo(nodes);
    assertThat(membership.read().nodes()).hasSize(nodes);
  }

  @Test
  void twenty_concurrent_queued_joins_all_apply_each_bumping_the_version_once() {
    int nodes = 20;
    joined("first");
    List<Callable<MembershipWrite>> joins = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      NewNode node = node("n" + i);
      joins.add(() -> membership.joinQueued(node));
    }

    assertThat(Race.run(joins))
        .as("each read its version under the lock: none is stale")
        .containsOnly(MembershipWrite.APPLIED);

    assertThat(membership.read().version()).isEqualTo(nodes + 1);
    assertThat(membership.read().nodes()).hasSize(nodes + 1);
  }

  @Test
  void
      concurrent_queued_activations_and_leaves_all_apply_and_a_queued_join_of_a_duplicate_changes_nothing() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ids.add(joined("n" + i));
    }
    List<Callable<MembershipWrite>> changes = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      changes.add(
          i % 2 == 0
              ? () -> membership.changeStatusQueued(id, NodeStatus.ACTIVE)
              : () -> membership.changeStatusQueued(id, NodeStatus.LEAVING));
    }

    assertThat(Race.run(changes)).containsOnly(MembershipWrite.APPLIED);
    assertThat(membership.read().version()).isEqualTo(20);
    assertThat(row(ids.get(0)).status()).isEqualTo(NodeStatus.ACTIVE);
    assertThat(row(ids.get(1)).status()).isEqualTo(NodeStatus.LEAVING);
    assertThat(membership.changeStatusQueued(ids.get(1), NodeStatus.ACTIVE))
        .isEqualTo(MembershipWrite.NOT_ELIGIBLE);

    List<Callable<MembershipWrite>> removals = new ArrayList<>();
    ids.forEach(id -> removals.add(() -> membership.removeQueued(id)));
    assertThat(Race.run(removals)).containsOnly(MembershipWrite.APPLIED);
    assertThat(membership.removeQueued(ids.get(0))).isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.read().nodes()).isEmpty();
    assertThat(membership.read().version()).isEqualTo(30);

    NewNode node = node("dup");
    assertThat(membership.joinQueued(node)).isEqualTo(MembershipWrite.APPLIED);
    assertThat(membership.joinQueued(node)).isEqualTo(MembershipWrite.DUPLICATE_NODE);
    assertThat(membership.read().version()).isEqualTo(31);
    assertThat(membership.read().nodes()).hasSize(1);
  }

  @Test
  void a_node_moves_itself_joining_active_leaving_and_removes_its_row() {
    String a = joined("a");

    assertThat(membership.changeStatus(a, NodeStatus.ACTIVE, 1)).isEqualTo(MembershipWrite.APPLIED);
    assertThat(membership.changeStatus(a, NodeStatus.ACTIVE, 2))
        .isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.changeStatus(a, NodeStatus.LEAVING, 2))
        .isEqualTo(MembershipWrite.APPLIED);
    assertThat(membership.changeStatus(a, NodeStatus.ACTIVE, 3))
        .isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.remove(a, 3)).isEqualTo(MembershipWrite.APPLIED);

    assertThat(membership.read().version()).isEqualTo(4);
    assertThat(membership.read().nodes()).isEmpty();
    assertThat(membership.remove(a, 4)).isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.read().version()).isEqualTo(4);
  }

  @Test
  void a_node_cannot_declare_itself_dead_or_joining() {
    String a = joined("a");
    assertThatThrownBy(() -> membership.changeStatus(a, NodeStatus.DEAD, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DEAD");
    assertThatThrownBy(() -> membership.changeStatus(a, NodeStatus.JOINING, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JOINING");
  }

  @Test
  void a_heartbeat_stamps_the_database_clock_and_does_not_change_the_version() {
    String a = joined("a");
    NodeInfo before = row(a);
    DatabaseClock.awaitPast(store, before.heartbeatAt());

    assertThat(membership.heartbeat(a)).isTrue();

    NodeInfo after = row(a);
    assertThat(membership.read().version()).isEqualTo(1);
    assertThat(after.heartbeatAt()).isAfter(before.heartbeatAt());
    assertThat(Duration.between(after.heartbeatAt(), store.now()).abs())
        .isLessThan(Duration.ofSeconds(2));
    assertThat(after.rowVersion()).isGreaterThan(before.rowVersion());
    assertThat(after.startedAt()).isEqualTo(before.startedAt());
  }

  @Test
  void a_heartbeat_for_a_missing_node_returns_false_and_inserts_nothing() {
    assertThat(membership.heartbeat(UUID.randomUUID().toString())).isFalse();

    assertThat(membership.read().nodes()).isEmpty();
    assertThat(membership.read().version()).isZero();
  }

  @Test
  void the_leader_declares_a_stale_node_dead_and_a_dead_node_cannot_heartbeat() {
    String leader = joined("leader");
    String stale = joined("stale");
    DatabaseClock.awaitPast(store, row(stale).heartbeatAt().plusMillis(5));
    membership.heartbeat(leader);
    LeaderFence fence = leaderFence(leader);

    assertThat(membership.findStale(Duration.ofMillis(5)))
        .extracting(NodeInfo::nodeId)
        .contains(stale);
    long version = membership.read().version();
    assertThat(membership.declareDead(stale, Duration.ofMillis(5), version, fence))
        .isEqualTo(MembershipWrite.APPLIED);

    assertThat(row(stale).status()).isEqualTo(NodeStatus.DEAD);
    assertThat(membership.read().version()).isEqualTo(version + 1);
    assertThat(membership.heartbeat(stale)).isFalse();
    assertThat(row(stale).status()).isEqualTo(NodeStatus.DEAD);
  }

  @Test
  void death_is_refused_for_a_fresh_node_for_the_leader_itself_and_with_a_stale_version() {
    String leader = joined("leader");
    String fresh = joined("fresh");
    LeaderFence fence = leaderFence(leader);
    long version = membership.read().version();
    DatabaseClock.awaitPast(store, row(leader).heartbeatAt().plusMillis(5));

    assertThat(membership.declareDead(fresh, Duration.ofHours(1), version, fence))
        .isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.declareDead(leader, Duration.ofMillis(1), version, fence))
        .isEqualTo(MembershipWrite.NOT_ELIGIBLE);
    assertThat(membership.declareDead(fresh, Duration.ofMillis(1), version - 1, fence))
        .isEqualTo(MembershipWrite.STALE_VERSION);

    assertThat(membership.read().version()).isEqualTo(version);
    assertThat(membership.read().nodes())
        .extracting(NodeInfo::status)
        .containsOnly(NodeStatus.JOINING);
  }

  @Test
  void a_death_declaration_with_a_superseded_epoch_is_fenced_and_changes_nothing() {
    String oldLeader = joined("old");
    String newLeader = joined("new");
    String victim = joined("victim");
    LeaderFence old = leaderFence(oldLeader);
    assertThat(store.leases().release(oldLeader, old.epoch())).isTrue();
    LeaderFence current = leaderFence(newLeader);
    assertThat(current.epoch()).isEqualTo(old.epoch() + 1);
    DatabaseClock.awaitPast(store, row(victim).heartbeatAt().plusMillis(5));
    long version = membership.read().version();

    assertThat(membership.declareDead(victim, Duration.ofMillis(1), version, old))
        .isEqualTo(MembershipWrite.FENCED);

    assertThat(row(victim).status()).isEqualTo(NodeStatus.JOINING);
    assertThat(membership.read().version()).isEqualTo(version);
    assertThat(membership.declareDead(victim, Duration.ofMillis(1), version, current))
        .isEqualTo(MembershipWrite.APPLIED);
  }

  @Test
  void cleanup_deletes_only_rows_that_are_not_active_and_older_than_the_cutoff() {
    String leader = joined("leader");
    String active = joined("active");
    String leaving = joined("leaving");
    membership.changeStatus(active, NodeStatus.ACTIVE, membership.read().version());
    membership.changeStatus(leaving, NodeStatus.LEAVING, membership.read().version());
    Instant oldRowsAt = row(leaving).heartbeatAt();
    DatabaseClock.awaitPast(store, oldRowsAt.plusMillis(400));
    String recent = joined("recent");
    membership.changeStatus(recent, NodeStatus.LEAVING, membership.read().version());
    LeaderFence fence = leaderFence(leader);

    // Rows written at least 400 ms apart, cut in the middle. The cut is read against the
    // database's now when the query runs: if this thread stalled long enough for the recent row
    // to pass the cut too, the database clock says so, and the recent row beats again and the
    // query is read once more with the wider cut.
    List<NodeInfo> defunct;
    Duration cutoff;
    for (int reads = 1; ; reads++) {
      assertThat(reads).as("reads before one ran within the cut").isLessThanOrEqualTo(20);
      Instant recentAt = row(recent).heartbeatAt();
      cutoff = Duration.between(oldRowsAt, recentAt).dividedBy(2);
      defunct = membership.findDefunct(cutoff, 100);
      if (Duration.between(recentAt, store.now()).compareTo(cutoff) < 0) {
        break;
      }
      assertThat(membership.heartbeat(recent)).isTrue();
    }

    assertThat(defunct).extracting(NodeInfo::nodeId).containsExactlyInAnyOrder(leader, leaving);
    membership.heartbeat(leader);
    assertThat(membership.deleteDefunct(defunct, cutoff, fence)).isEqualTo(1);
    assertThat(membership.read().nodes())
        .extracting(NodeInfo::nodeId)
        .containsExactlyInAnyOrder(leader, active, recent);
  }

  @Test
  void a_heartbeat_racing_a_cleanup_delete_wins() {
    String leader = activeLeader();
    String leaving = joined("leaving");
    membership.changeStatus(leaving, NodeStatus.LEAVING, membership.read().version());
    DatabaseClock.awaitPast(store, row(leaving).heartbeatAt().plusMillis(5));
    LeaderFence fence = leaderFence(leader);
    List<NodeInfo> readByCleanup = membership.findDefunct(Duration.ofMillis(1), 10);
    assertThat(readByCleanup).extracting(NodeInfo::nodeId).contains(leaving);

    // The heartbeat lands between the cleanup's read and its delete.
    assertThat(membership.heartbeat(leaving)).isTrue();
    DatabaseClock.awaitPast(store, row(leaving).heartbeatAt().plusMillis(5));

    assertThat(membership.deleteDefunct(readByCleanup, Duration.ofMillis(1), fence)).isZero();
    assertThat(membership.read().nodes()).extracting(NodeInfo::nodeId).contains(leaving);
  }

  @Test
  void a_status_change_racing_a_cleanup_delete_wins() {
    String leader = activeLeader();
    String joining = joined("joining");
    DatabaseClock.awaitPast(store, row(joining).heartbeatAt().plusMillis(5));
    LeaderFence fence = leaderFence(leader);
    List<NodeInfo> readByCleanup = membership.findDefunct(Duration.ofMillis(1), 10);

    membership.changeStatus(joining, NodeStatus.LEAVING, membership.read().version());

    assertThat(membership.deleteDefunct(readByCleanup, Duration.ofMillis(1), fence)).isZero();
    assertThat(membership.read().nodes()).extracting(NodeInfo::nodeId).contains(joining);
  }

  @Test
  void cleanup_with_a_superseded_epoch_deletes_nothing() {
    String oldLeader = joined("old");
    String leaving = joined("leaving");
    membership.changeStatus(leaving, NodeStatus.LEAVING, membership.read().version());
    LeaderFence old = leaderFence(oldLeader);
    store.leases().release(oldLeader, old.epoch());
    DatabaseClock.awaitPast(store, row(leaving).heartbeatAt().plusMillis(5));

    assertThat(
            membership.deleteDefunct(
                membership.findDefunct(Duration.ofMillis(1), 10), Duration.ofMillis(1), old))
        .isZero();
    assertThat(membership.read().nodes()).extracting(NodeInfo::nodeId).contains(leaving);
  }

  /**
   * The kit's own decorator forwards each SPI call to the same method of the store it wraps, so a
   * fault test exercises the provider's implementation, not a stand-in built from other methods
   * (once {@code version()} answered from {@code read()} through an SPI default method).
   */
  @Test
  void the_kits_faulty_store_forwards_each_call_to_the_same_method_of_the_real_store()
      throws Exception {
    CallRecorder recorder = new CallRecorder();
    FaultyStore faulty = new FaultyStore(recorder.wrap(store));
    String nodeId = joined("api-1");
    LeaderFence fence = leaderFence(nodeId);
    recorder.take();

    faulty.membership().version();
    assertThat(recorder.take()).containsExactly("MembershipStore.version");
    faulty.membership().read();
    assertThat(recorder.take()).containsExactly("MembershipStore.read");
    faulty.membership().heartbeat(nodeId);
    assertThat(recorder.take()).containsExactly("MembershipStore.heartbeat");
    faulty.membership().findStale(LONG_TTL);
    assertThat(recorder.take()).containsExactly("MembershipStore.findStale");
    faulty.membership().findDefunct(LONG_TTL, 10);
    assertThat(recorder.take()).containsExactly("MembershipStore.findDefunct");
    faulty.leases().read();
    assertThat(recorder.take()).containsExactly("LeaseStore.read");
    faulty.leases().isCurrent(fence);
    assertThat(recorder.take()).containsExactly("LeaseStore.isCurrent");
    faulty.queues().stats();
    assertThat(recorder.take()).containsExactly("QueueStore.stats");
    java.util.Optional<AutoCloseable> subscription = faulty.queues().listen(queue -> {});
    assertThat(recorder.take()).containsExactly("QueueStore.listen");
    if (subscription.isPresent()) {
      subscription.get().close();
    }
    faulty.events().recent(1);
    assertThat(recorder.take()).containsExactly("Store.events", "EventStore.recent");
  }
}
