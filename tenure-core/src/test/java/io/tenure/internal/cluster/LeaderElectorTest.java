package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DemotionReason;
import io.tenure.LeadershipSettings;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.internal.TestSettings;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The elector driven tick by tick, with the database clock and the ticker both injected. */
class LeaderElectorTest {
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration RENEW = Duration.ofSeconds(1);
  private static final Duration FENCE_AFTER = Duration.ofSeconds(4);

  private final ManualTime time = new ManualTime();
  private final InMemoryStore store = InMemoryStore.builder().clock(time.databaseClock()).build();
  private final List<String> edges = new ArrayList<>();
  private final FakeSessionLocks locks = new FakeSessionLocks();

  private LeaderElector elector(String nodeId, boolean promotable, Duration acquireDelay) {
    NodeSettings settings = settingsOf(promotable, acquireDelay);
    NodeListener recorder =
        new NodeListener() {
          @Override
          public void onPromoted(long epoch) {
            edges.add(nodeId + " promoted " + epoch);
          }

          @Override
          public void onDemoted(long epoch, DemotionReason reason) {
            edges.add(nodeId + " demoted " + epoch + " " + reason);
          }
        };
    return new LeaderElector(
        store.leases(),
        settings,
        time.ticker(),
        () -> nodeId,
        new Listeners(List.of(recorder)),
        new History(store.events()));
  }

  private LeaderElector elector(String nodeId) {
    return elector(nodeId, true, Duration.ZERO);
  }

  /** An elector on {@code leases} (e.g. a slow or lock-faking wrapper) that records no edges. */
  private LeaderElector electorOn(
      io.tenure.spi.LeaseStore leases, String nodeId, Duration acquireDelay) {
    return new LeaderElector(
        leases,
        settingsOf(acquireDelay),
        time.ticker(),
        () -> nodeId,
        new Listeners(List.of()),
        new History(store.events()));
  }

  /**
   * An elector on {@code leases}, with a session of its own on their simulated lock, recording
   * edges.
   */
  private LeaderElector lockingElector(SlowLeases leases, String nodeId) {
    NodeListener recorder =
        new NodeListener() {
          @Override
          public void onPromoted(long epoch) {
            edges.add(nodeId + " promoted " + epoch);
          }

          @Override
          public void onDemoted(long epoch, DemotionReason reason) {
            edges.add(nodeId + " demoted " + epoch + " " + reason);
          }
        };
    return new LeaderElector(
        leases,
        settingsOf(Duration.ZERO),
        time.ticker(),
        () -> nodeId,
        new Listeners(List.of(recorder)),
        new History(store.events()));
  }

  @Test
  void exactly_at_fence_after_it_is_still_leader_and_just_past_it_it_is_demoted_once() {
    LeaderElector a = elector("a");
    a.tick();
    assertThat(a.isLeader()).isTrue();

    time.advance(FENCE_AFTER);
    assertThat(a.isLeader()).isTrue();
    assertThat(a.fence()).isPresent();

    time.advance(Duration.ofNanos(1));
    assertThat(a.isLeader()).isFalse();
    a.checkFence();
    assertThat(a.isLeader()).isFalse();
    assertThat(a.fence()).isEmpty();
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 SELF_FENCE");
  }

  @Test
  void the_trust_window_starts_before_the_renewal_was_sent_not_when_its_reply_arrived() {
    SlowLeases leases = new SlowLeases(store.leases());
    LeaderElector a = electorOn(leases, "a", Duration.ZERO);
    a.tick();
    time.advance(RENEW);
    long renewSentAt = time.ticker().read();
    leases.beforeRenewReply(() -> time.advance(Duration.ofSeconds(3)));

    a.tick();

    assertThat(a.isLeader()).isTrue();
    time.advance(FENCE_AFTER.minusSeconds(3));
    assertThat(time.ticker().read() - renewSentAt).isEqualTo(FENCE_AFTER.toNanos());
    assertThat(a.isLeader()).isTrue();
    time.advance(Duration.ofNanos(1));
    assertThat(a.isLeader()).isFalse();
  }

  private static NodeSettings settingsOf() {
    return settingsOf(Duration.ZERO);
  }

  private static NodeSettings settingsOf(Duration acquireDelay) {
    return settingsOf(true, acquireDelay);
  }

  private static NodeSettings settingsOf(boolean promotable, Duration acquireDelay) {
    return TestSettings.node()
        .leadership(
            new LeadershipSettings(
                TTL, RENEW, FENCE_AFTER, Duration.ZERO, promotable, acquireDelay))
        .build();
  }

  @Test
  void renewals_keep_the_epoch_and_the_trust_window_moves_with_them() {
    LeaderElector a = elector("a");
    a.tick();
    for (int i = 0; i < 10; i++) {
      time.advance(RENEW);
      a.tick();
    }
    time.advance(FENCE_AFTER);
    assertThat(a.isLeader()).isTrue();
    assertThat(a.fence().orElseThrow().epoch()).isEqualTo(1);
    assertThat(edges).containsExactly("a promoted 1");
  }

  @Test
  void a_renewal_that_finds_another_holder_demotes_at_once() {
    LeaderElector a = elector("a");
    a.tick();
    // The lease is taken over behind a's back (as after a crash detected elsewhere).
    store.leases().recordSessionLock("a", 1);
    store.leases().takeOver("b", "a", 1, TTL).orElseThrow();

    time.advance(RENEW);
    a.tick();

    assertThat(a.isLeader()).isFalse();
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 SUPERSEDED");
  }

  @Test
  void a_standby_takes_over_only_after_expiry_by_the_database_clock_with_the_next_epoch() {
    LeaderElector a = elector("a");
    LeaderElector b = elector("b");
    a.tick();
    b.tick();
    assertThat(b.isLeader()).isFalse();

    time.advance(TTL.minusNanos(1000));
    b.tick();
    assertThat(b.isLeader()).isFalse();
    // expires_at <= now: at exactly the expiry the lease is free.
    time.advance(Duration.ofNanos(1000));
    b.tick();

    assertThat(b.isLeader()).isTrue();
    assertThat(b.fence().orElseThrow().epoch()).isEqualTo(2);
    assertThat(a.isLeader()).isFalse();
  }

  @Test
  void a_non_promotable_node_never_acquires() {
    LeaderElector observer = elector("observer", false, Duration.ZERO);
    for (int i = 0; i < 20; i++) {
      observer.tick();
      time.advance(RENEW);
    }
    assertThat(observer.isLeader()).isFalse();
    assertThat(store.leases().read().epoch()).isZero();
  }

  @Test
  void
      a_non_promotable_node_that_holds_the_lease_releases_it_so_a_promotable_one_acquires_at_once() {
    store.leases().acquire("observer", TTL).orElseThrow();
    LeaderElector observer = elector("observer", false, Duration.ZERO);
    LeaderElector b = elector("b");

    observer.tick();
    b.tick();

    assertThat(b.isLeader()).isTrue();
    assertThat(b.fence().orElseThrow().epoch()).isEqualTo(2);
    assertThat(observer.isLeader()).isFalse();
  }

  @Test
  void with_an_acquire_delay_the_preferred_node_wins_the_race_for_an_expired_lease() {
    LeaderElector old = elector("old");
    old.tick();
    time.advance(TTL.plusMillis(1));
    LeaderElector delayed = elector("delayed", true, Duration.ofSeconds(2));
    LeaderElector preferred = elector("preferred");

    // The delayed node sees the lease free first, but waits; the preferred node takes it.
    delayed.tick();
    time.advance(Duration.ofSeconds(1));
    preferred.tick();
    time.advance(Duration.ofSeconds(1));
    delayed.tick();

    assertThat(preferred.isLeader()).isTrue();
    assertThat(delayed.isLeader()).isFalse();
    assertThat(store.leases().read().holder()).isEqualTo("preferred");
  }

  @Test
  void an_acquire_delay_elapses_on_the_monotonic_clock_then_the_node_acquires() {
    LeaderElector delayed = elector("delayed", true, Duration.ofSeconds(2));
    delayed.tick();
    assertThat(delayed.isLeader()).isFalse();
    time.advance(Duration.ofMillis(1999));
    delayed.tick();
    assertThat(delayed.isLeader()).isFalse();
    time.advance(Duration.ofMillis(1));
    delayed.tick();
    assertThat(delayed.isLeader()).isTrue();
  }

  @Test
  void stepping_down_expires_the_lease_so_a_standby_acquires_at_once_with_the_next_epoch() {
    LeaderElector a = elector("a");
    LeaderElector b = elector("b");
    a.tick();

    a.stepDown("a");
    b.tick();

    assertThat(b.isLeader()).isTrue();
    assertThat(b.fence().orElseThrow().epoch()).isEqualTo(2);
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 STEP_DOWN", "b promoted 2");
  }

  @Test
  void a_demoted_node_that_still_holds_the_unexpired_lease_resumes_with_the_same_epoch() {
    LeaderElector a = elector("a");
    a.tick();
    a.demote(DemotionReason.SELF_FENCE);

    a.tick();

    assertThat(a.isLeader()).isTrue();
    Lease lease = store.leases().read();
    assertThat(lease.epoch()).isEqualTo(1);
  }

  @Test
  void listeners_that_throw_do_not_stop_the_demotion() {
    List<String> seen = new ArrayList<>();
    NodeListener broken =
        new NodeListener() {
          @Override
          public void onDemoted(long epoch, DemotionReason reason) {
            throw new IllegalStateException("listener bug");
          }
        };
    NodeListener after =
        new NodeListener() {
          @Override
          public void onDemoted(long epoch, DemotionReason reason) {
            seen.add("demoted " + epoch);
          }
        };
    String nodeId = UUID.randomUUID().toString();
    LeaderElector a =
        new LeaderElector(
            store.leases(),
            settingsOf(),
            time.ticker(),
            () -> nodeId,
            new Listeners(List.of(broken, after)),
            new History(store.events()));
    a.tick();
    a.demote(DemotionReason.STEP_DOWN);

    assertThat(a.isLeader()).isFalse();
    assertThat(seen).containsExactly("demoted 1");
  }

  /**
   * The elector's acquire is on its way (held at {@code gate}) while, on the lock thread, the node
   * leads at epoch 1, promises its session lock, and loses it to a candidate's session: {@code
   * lockLost} demotes it and releases the lease. Returns the elector's thread, still held.
   */
  private Thread lockLostWhileAnAcquireIsInFlight(LeaderElector a, Gate gate) throws Exception {
    Thread electorThread = Thread.ofPlatform().start(a::tick);
    gate.awaitReached();
    a.acquire(time.ticker().read()); // the lock thread's take-over path finds the lease free
    SessionLockWatch watch = a.lockWatch().orElseThrow();
    watch.tick(); // takes the lock, proves it with a renewal, records it: candidates rely on it
    locks.killHolder();
    assertThat(locks.session().hold()).isEqualTo(LeaseStore.SessionLock.Hold.TAKEN);
    watch.tick(); // REFUSED: lockLost
    assertThat(a.isLeader()).isFalse();
    assertThat(store.leases().read().live()).as("lockLost released the lease").isFalse();
    return electorThread;
  }

  @Test
  void an_acquire_sent_before_the_lock_was_lost_and_answered_after_its_release_promotes_nothing()
      throws Exception {
    SlowLeases leases = new SlowLeases(store.leases(), locks);
    LeaderElector a = lockingElector(leases, "a");
    Gate answer = new Gate();
    leases.beforeNextAcquireReply(answer::pass); // ran in the store before lockLost; answers late

    Thread electorThread = lockLostWhileAnAcquireIsInFlight(a, answer);
    answer.open();
    electorThread.join();

    assertThat(a.isLeader()).as("leader on a lease lockLost released").isFalse();
    assertThat(store.leases().read().live()).isFalse();
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 LOCK_LOST");
  }

  @Test
  void an_acquire_sent_before_the_lock_was_lost_that_lands_after_its_release_is_released_again()
      throws Exception {
    SlowLeases leases = new SlowLeases(store.leases(), locks);
    LeaderElector a = lockingElector(leases, "a");
    LeaderElector b = elector("b");
    Gate sending = new Gate();
    leases.beforeNextAcquire(sending::pass); // reaches the store only after lockLost's release

    Thread electorThread = lockLostWhileAnAcquireIsInFlight(a, sending);
    sending.open();
    electorThread.join();

    assertThat(a.isLeader()).isFalse();
    assertThat(store.leases().read().live()).as("the stale acquire's lease was let go").isFalse();
    b.tick(); // the candidate need not wait for an expiry
    assertThat(b.isLeader()).isTrue();
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 LOCK_LOST", "b promoted 2");
  }

  @Test
  void while_a_stale_acquire_is_being_released_no_acquire_promotes_on_that_epoch()
      throws Exception {
    SlowLeases leases = new SlowLeases(store.leases(), locks);
    LeaderElector a = lockingElector(leases, "a");
    Gate sending = new Gate();
    leases.beforeNextAcquire(sending::pass);
    Thread electorThread = lockLostWhileAnAcquireIsInFlight(a, sending);
    Gate releasing = new Gate();
    leases.beforeNextRelease(releasing::pass);
    sending.open();
    releasing.awaitReached();

    // The hold-off is over and the lock thread acquires the same lease, epoch 1, again.
    time.advance(TTL);
    a.acquire(time.ticker().read());
    releasing.open();
    electorThread.join();

    assertThat(a.isLeader() && !store.leases().read().live())
        .as("leader on a lease its own release expired")
        .isFalse();
    assertThat(a.isLeader()).isFalse();
  }
}
