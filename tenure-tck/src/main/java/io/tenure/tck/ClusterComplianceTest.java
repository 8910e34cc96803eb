package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.DemotionReason;
import io.tenure.Limits;
import io.tenure.NodeInfo;
import io.tenure.NodeListener;
import io.tenure.NodeStatus;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import io.tenure.Ticker;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §3, §4 with real nodes in one JVM, each with its own store on one shared database (as
 * separate processes would have), on fast timings. Faults are injected with {@link FaultyStore}.
 */
public abstract class ClusterComplianceTest extends FixtureSupport {
  /** Fast timings; the JDBC statement timeout (1 s) is why fenceAfter is 1.5 s. */
  protected static final Duration HEARTBEAT = Duration.ofMillis(100);

  protected static final Duration SELF_FENCE = Duration.ofMillis(400);
  protected static final Duration STALE = Duration.ofMillis(1000);
  protected static final Duration RENEW = Duration.ofMillis(100);
  protected static final Duration FENCE_AFTER = Duration.ofMillis(1500);
  protected static final Duration TTL = Duration.ofMillis(2000);
  private static final Duration BOUND = Duration.ofSeconds(20);

  private TablePrefix prefix;
  private Store observer;
  private final List<TenureNode> nodes = new ArrayList<>();

  @BeforeEach
  void sharedDatabase() {
    prefix = freshPrefix();
    observer = fixture.open(prefix);
  }

  @AfterEach
  void stopNodes() {
    nodes.forEach(TenureNode::close);
  }

  private TenureNodeBuilder builder(Store store, String name) {
    return TenureNode.builder(store)
        .name(name)
        .heartbeatInterval(HEARTBEAT)
        .selfFenceAfter(SELF_FENCE)
        .staleAfter(STALE)
        .renewInterval(RENEW)
        .fenceAfter(FENCE_AFTER)
        .leaseTtl(TTL);
  }

  private TenureNode started(TenureNodeBuilder builder) {
    TenureNode node = builder.build();
    nodes.add(node);
    node.start();
    return node;
  }

  private TenureNode node(String name) {
    return started(builder(fixture.open(prefix), name));
  }

  private List<TenureNode> leaders(List<TenureNode> among) {
    return among.stream().filter(TenureNode::isLeader).toList();
  }

  private TenureNode awaitOneLeader(List<TenureNode> among) {
    Await.until(
        BOUND, "exactly one leader among " + among.size(), () -> leaders(among).size() == 1);
    return leaders(among).get(0);
  }

  private Optional<NodeInfo> row(String nodeId) {
    return observer.membership().read().nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst();
  }

  @Test
  void three_nodes_elect_exactly_one_leader_and_it_holds_the_lease() {
    List<TenureNode> three = List.of(node("a"), node("b"), node("c"));

    TenureNode leader = awaitOneLeader(three);

    Lease lease = observer.leases().read();
    assertThat(lease.holder()).isEqualTo(leader.nodeId());
    assertThat(leader.leaderFence().orElseThrow().epoch()).isEqualTo(lease.epoch());
    assertThat(observer.membership().read().nodes())
        .hasSize(3)
        .extracting(NodeInfo::status)
        .containsOnly(NodeStatus.ACTIVE);
  }

  @Test
  void
      a_node_whose_lease_and_deadlines_are_the_longest_allowed_leads_renews_and_leaves_on_the_database_clock() {
    // The bound (Limits.MAX_DURATION) is right only if every statement the node runs with it works
    // on every provider: acquire and renew at now + 365 days, staleness and cleanup at now - 365
    // days, history at now - 3,650 days.
    Duration longest = Limits.MAX_DURATION;
    List<DemotionReason> demotions = new CopyOnWriteArrayList<>();
    TenureNode node =
        started(
            TenureNode.builder(fixture.open(prefix))
                .name("patient")
                .heartbeatInterval(HEARTBEAT)
                .selfFenceAfter(longest.minusSeconds(2))
                .staleAfter(longest)
                .renewInterval(RENEW)
                .fenceAfter(longest.minusSeconds(1))
                .leaseTtl(longest)
                .defunctAfter(longest)
                .eventRetention(100, Limits.MAX_RETENTION)
                .agentSweepInterval(RENEW)
                .agentTimeouts(longest, longest)
                .initialPlacementDelay(Duration.ZERO, longest)
                .queueReclaim(longest, 10)
                .drainDeadline(longest)
                .listener(
                    new NodeListener() {
                      @Override
                      public void onDemoted(long epoch, DemotionReason reason) {
                        demotions.add(reason);
                      }
                    }));
    Await.until(BOUND, "the node leads", node::isLeader);
    Lease first = observer.leases().read();
    assertThat(Duration.between(first.readAt(), first.expiresAt()))
        .isBetween(longest.minusSeconds(2), longest);

    Await.until(
        BOUND,
        "renewals keep moving the expiry at the longest TTL",
        () ->
            observer
                .leases()
                .read()
                .expiresAt()
                .isAfter(first.expiresAt().plus(RENEW.multipliedBy(2))));

    assertThat(node.isLeader()).isTrue();
    assertThat(demotions).isEmpty();
    assertThat(observer.leases().read().epoch()).isEqualTo(first.epoch());
    node.close();
    assertThat(observer.leases().read().live()).as("stepped down at close").isFalse();
  }

  @Test
  void a_crashed_leader_is_replaced_its_epoch_superseded_and_it_is_declared_dead() {
    List<FaultyStore> stores = new ArrayList<>();
    List<TenureNode> three = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      FaultyStore store = new FaultyStore(fixture.open(prefix));
      stores.add(store);
      three.add(started(builder(store, name)));
    }
    TenureNode leader = awaitOneLeader(three);
    LeaderFence oldFence = leader.leaderFence().orElseThrow();

    stores.get(three.indexOf(leader)).crash();

    List<TenureNode> survivors = three.stream().filter(n -> n != leader).toList();
    TenureNode successor = awaitOneLeader(survivors);
    assertThat(successor.leaderFence().orElseThrow().epoch()).isGreaterThan(oldFence.epoch());
    assertThat(observer.leases().isCurrent(oldFence)).isFalse();
    Await.until(BOUND, "the crashed leader demotes itself", () -> !leader.isLeader());
    Await.until(
        BOUND,
        "the crashed leader is declared dead",
        () -> row(oldFence.nodeId()).map(NodeInfo::status).orElse(null) == NodeStatus.DEAD);
    long version = observer.membership().read().version();
    assertThat(
            observer
                .membership()
                .declareDead(survivors.get(0).nodeId(), Duration.ofMillis(1), version, oldFence))
        .isEqualTo(MembershipWrite.FENCED);
  }

  @Test
  void a_graceful_stop_releases_the_lease_at_once_and_a_standby_takes_the_next_epoch() {
    List<TenureNode> two = List.of(node("a"), node("b"));
    TenureNode leader = awaitOneLeader(two);
    long epoch = leader.leaderFence().orElseThrow().epoch();
    String leaderId = leader.nodeId();

    leader.close();

    // Released at once: by now it is either free, or already the standby's at the next epoch.
    Lease released = observer.leases().read();
    assertThat(released.heldBy(leaderId)).as("lease released by the step-down").isFalse();
    assertThat(released.epoch()).isIn(epoch, epoch + 1);
    assertThat(row(leaderId)).as("row deleted on leave").isEmpty();
    TenureNode standby = two.stream().filter(n -> n != leader).findFirst().orElseThrow();
    Await.until(BOUND, "the standby leads", standby::isLeader);
    assertThat(standby.leaderFence().orElseThrow().epoch()).isEqualTo(epoch + 1);
  }

  @Test
  void a_node_whose_row_was_deleted_rejoins_as_a_new_incarnation() {
    List<String> rejoins = new CopyOnWriteArrayList<>();
    TenureNode node =
        started(
            builder(fixture.open(prefix), "a")
                .listener(
                    new NodeListener() {
                      @Override
                      public void onRejoined(String previousNodeId, String nodeId) {
                        rejoins.add(previousNodeId + "->" + nodeId);
                      }
                    }));
    String first = node.nodeId();

    assertThat(observer.membership().remove(first, observer.membership().read().version()))
        .isEqualTo(MembershipWrite.APPLIED);

    // The listener fires once the new incarnation is ACTIVE; wait for both.
    Await.until(
        BOUND,
        "a new incarnation",
        () ->
            !node.nodeId().equals(first)
                && !rejoins.isEmpty()
                && row(node.nodeId()).map(NodeInfo::status).orElse(null) == NodeStatus.ACTIVE);
    assertThat(row(first)).isEmpty();
    assertThat(rejoins).containsExactly(first + "->" + node.nodeId());
  }

  @Test
  void a_node_that_stops_heart_beating_self_fences_is_declared_dead_and_rejoins_when_it_recovers() {
    TenureNode leader = node("leader");
    awaitOneLeader(List.of(leader));
    FaultyStore store = new FaultyStore(fixture.open(prefix));
    TenureNode follower = started(builder(store, "follower").promotable(false));
    String first = follower.nodeId();

    store.heartbeatsDown(true);

    Await.until(BOUND, "the follower self-fences", follower::isSelfFenced);
    Await.until(
        BOUND,
        "the leader declares it dead",
        () -> row(first).map(NodeInfo::status).orElse(null) == NodeStatus.DEAD);
    store.heartbeatsDown(false);
    Await.until(
        BOUND,
        "it rejoins",
        () ->
            !follower.nodeId().equals(first)
                && row(follower.nodeId()).map(NodeInfo::status).orElse(null) == NodeStatus.ACTIVE);
    Await.until(BOUND, "its self-fence is lifted", () -> !follower.isSelfFenced());
  }

  @Test
  void
      exactly_at_fence_after_a_leader_cut_off_from_its_lease_still_leads_and_just_past_it_demotes_once() {
    AtomicLong now = new AtomicLong(0);
    Ticker frozen = now::get;
    List<String> demotions = new CopyOnWriteArrayList<>();
    FaultyStore store = new FaultyStore(fixture.open(prefix));
    // The renewal window alone: a session lock, once its check passed, bounds the trust sooner
    // (lockTrust, at most half of fenceAfter), and whether that check ran before the cut was a
    // race.
    store.lockChecksDown(true);
    TenureNode leader =
        started(
            builder(store, "a")
                .ticker(frozen)
                .listener(
                    new NodeListener() {
                      @Override
                      public void onDemoted(long epoch, DemotionReason reason) {
                        demotions.add(epoch + " " + reason);
                      }
                    }));
    Await.until(BOUND, "it leads", leader::isLeader);

    // With the ticker frozen every renewal started at tick 0; now none can succeed.
    store.leasesDown(true);
    now.set(FENCE_AFTER.toNanos());
    assertThat(leader.isLeader()).isTrue();
    now.set(FENCE_AFTER.toNanos() + 1);
    assertThat(leader.isLeader()).isFalse();
    assertThat(leader.leaderFence()).isEmpty();
    assertThat(leader.isLeader()).isFalse();

    assertThat(demotions).containsExactly("1 SELF_FENCE");
  }

  @Test
  void with_an_acquire_delay_the_preferred_node_wins_the_race_for_an_expired_lease() {
    FaultyStore oldStore = new FaultyStore(fixture.open(prefix));
    TenureNode old = started(builder(oldStore, "old"));
    Await.until(BOUND, "the old node leads", old::isLeader);
    long oldEpoch = old.leaderFence().orElseThrow().epoch();
    TenureNode delayed =
        started(builder(fixture.open(prefix), "delayed").acquireDelay(Duration.ofSeconds(2)));
    TenureNode preferred = node("preferred");

    oldStore.crash();

    Await.until(BOUND, "a new leader", () -> preferred.isLeader() || delayed.isLeader());
    assertThat(preferred.isLeader()).isTrue();
    assertThat(delayed.isLeader()).isFalse();
    assertThat(preferred.leaderFence().orElseThrow().epoch()).isEqualTo(oldEpoch + 1);
  }

  @Test
  void a_non_promotable_node_never_leads() {
    TenureNode follower = started(builder(fixture.open(prefix), "follower").promotable(false));
    String id = follower.nodeId();
    java.time.Instant joined = row(id).orElseThrow().heartbeatAt();

    // Ten renew intervals by the database clock, observed through its own heartbeats.
    Await.until(
        BOUND,
        "ten renew intervals of heartbeats",
        () -> row(id).orElseThrow().heartbeatAt().isAfter(joined.plus(RENEW.multipliedBy(10))));

    assertThat(follower.isLeader()).isFalse();
    assertThat(observer.leases().read().epoch()).isZero();
  }

  @Test
  void two_nodes_with_one_name_cannot_run_in_one_process_on_one_store() {
    node("twin");
    long version = observer.membership().read().version();
    TenureNode twin = builder(fixture.open(prefix), "twin").build();

    assertThatThrownBy(twin::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'twin'");
    assertThat(observer.membership().read().version()).isEqualTo(version);
  }

  @Test
  void a_frozen_leader_that_resumes_after_its_successor_took_the_lease_never_takes_it_back()
      throws InterruptedException {
    List<FaultyStore> stores = new ArrayList<>();
    List<TenureNode> three = new ArrayList<>();
    try (LeaderOverlaps overlaps = new LeaderOverlaps()) {
      for (String name : List.of("a", "b", "c")) {
        FaultyStore store = new FaultyStore(fixture.open(prefix));
        stores.add(store);
        TenureNode node = started(builder(store, name).listener(overlaps.listener()));
        three.add(node);
        overlaps.watch(node);
      }
      TenureNode leader = awaitOneLeader(three);
      long epoch = leader.leaderFence().orElseThrow().epoch();
      boolean locking = hasSessionLock();
      if (locking) {
        Await.until(
            BOUND,
            "the leader records its session lock",
            () -> observer.leases().read().sessionLocked());
      }
      FaultyStore frozen = stores.get(three.indexOf(leader));

      // Frozen past the lease TTL: its session (where there is one) keeps the lock all the while.
      frozen.freeze(true);
      List<TenureNode> others = three.stream().filter(n -> n != leader).toList();
      TenureNode successor = awaitOneLeader(others);
      assertThat(successor.leaderFence().orElseThrow().epoch()).isEqualTo(epoch + 1);
      // The successor's lock checks stall for a while, so that the others find the freed lock
      // first.
      FaultyStore successorStore = stores.get(three.indexOf(successor));
      successorStore.lockChecksDown(true);
      frozen.freeze(false);

      // The resumed node lets its lock go; the others leave it alone (the successor never recorded
      // it), the successor takes it and records it, and nobody takes the lease over.
      Thread.sleep(TTL.toMillis());
      successorStore.lockChecksDown(false);
      if (locking) {
        Await.until(
            BOUND,
            "the successor records its session lock",
            () -> observer.leases().read().sessionLocked());
      }
      long until = System.nanoTime() + TTL.multipliedBy(2).toNanos();
      while (System.nanoTime() < until) {
        Lease lease = observer.leases().read();
        assertThat(lease.epoch())
            .as("exactly one leader change for one pause")
            .isEqualTo(epoch + 1);
        assertThat(lease.holder()).isEqualTo(successor.nodeId());
        Thread.sleep(20);
      }
      assertThat(overlaps.violations()).isEmpty();
    }
  }

  private boolean hasSessionLock() {
    Optional<io.tenure.spi.LeaseStore.SessionLock> probe = observer.leases().sessionLock();
    probe.ifPresent(io.tenure.spi.LeaseStore.SessionLock::close);
    return probe.isPresent();
  }
}
