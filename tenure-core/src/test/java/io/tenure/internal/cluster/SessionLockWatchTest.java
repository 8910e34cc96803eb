package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DemotionReason;
import io.tenure.LeadershipSettings;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.StoreUnavailableException;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.internal.TestSettings;
import io.tenure.spi.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Fast fail-over through the session lock (SPEC §4.7), tick by tick on injected clocks, with the
 * lock simulated: a candidate replaces only a holder that can no longer act, and never while the
 * holder still answers {@code isLeader()}.
 */
class SessionLockWatchTest {
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration RENEW = Duration.ofSeconds(1);
  private static final Duration FENCE_AFTER = Duration.ofSeconds(4);

  /** The lock thread's period: a tenth of the renew interval. */
  private static final Duration LOCK_TICK = Duration.ofMillis(100);

  /** How long a leader trusts one lock check: half the renew interval. */
  private static final Duration LOCK_TRUST = Duration.ofMillis(500);

  private final ManualTime time = new ManualTime();
  private final InMemoryStore store = InMemoryStore.builder().clock(time.databaseClock()).build();
  private final FakeSessionLocks locks = new FakeSessionLocks();
  private final List<String> edges = new ArrayList<>();

  private LeaderElector elector(String nodeId, Duration acquireDelay) {
    return elector(nodeId, acquireDelay, new SlowLeases(store.leases(), locks));
  }

  private LeaderElector elector(String nodeId, Duration acquireDelay, SlowLeases leases) {
    NodeSettings settings =
        TestSettings.node()
            .leadership(
                new LeadershipSettings(TTL, RENEW, FENCE_AFTER, Duration.ZERO, true, acquireDelay))
            .build();
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
    LeaderElector elector =
        new LeaderElector(
            leases,
            settings,
            time.ticker(),
            () -> nodeId,
            new Listeners(List.of(recorder)),
            new History(store.events()));
    assertThat(LockTiming.lockInterval(settings)).isEqualTo(LOCK_TICK);
    assertThat(LockTiming.lockTrust(settings)).isEqualTo(LOCK_TRUST);
    return elector;
  }

  private LeaderElector elector(String nodeId) {
    return elector(nodeId, Duration.ZERO);
  }

  private static void lockTick(LeaderElector elector) {
    elector.lockWatch().orElseThrow().tick();
  }

  /** A leader that has taken its session lock and recorded it in the lease. */
  private LeaderElector leaderWithRecordedLock(String nodeId) {
    LeaderElector leader = elector(nodeId);
    leader.tick();
    lockTick(leader);
    assertThat(leader.isLeader()).isTrue();
    assertThat(store.leases().read().sessionLocked()).isTrue();
    return leader;
  }

  /** Ticks the candidate's elector and lock watch, as its threads would, for {@code span}. */
  private void run(LeaderElector candidate, LeaderElector other, Duration span, Runnable check) {
    long ticks = span.toNanos() / LOCK_TICK.toNanos();
    for (long i = 0; i < ticks; i++) {
      time.advance(LOCK_TICK);
      if (i % 10 == 0) {
        candidate.tick();
      }
      lockTick(candidate);
      check.run();
      assertThat(candidate.isLeader() && other.isLeader()).as("two leaders at once").isFalse();
    }
  }

  @Test
  void a_leader_records_its_session_lock_in_the_lease_once_it_holds_it() {
    LeaderElector a = elector("a");
    a.tick();
    assertThat(store.leases().read().sessionLocked()).isFalse();

    lockTick(a);

    Lease lease = store.leases().read();
    assertThat(lease.sessionLocked()).isTrue();
    assertThat(lease.holder()).isEqualTo("a");
  }

  @Test
  void
      a_paused_leader_whose_session_was_killed_is_replaced_only_after_it_stopped_trusting_itself() {
    LeaderElector a = leaderWithRecordedLock("a");
    LeaderElector b = elector("b");
    b.tick(); // b sees a's lease, with its lock recorded
    // a is paused from now on (no ticks), and its lock session is killed meanwhile.
    locks.killHolder();
    List<Boolean> aLeadingWhenBPromoted = new ArrayList<>();
    boolean[] promoted = {false};

    run(
        b,
        a,
        Duration.ofSeconds(2),
        () -> {
          if (b.isLeader() && !promoted[0]) {
            promoted[0] = true;
            aLeadingWhenBPromoted.add(a.isLeader());
          }
        });

    assertThat(b.isLeader()).isTrue();
    assertThat(b.fence().orElseThrow().epoch()).isEqualTo(2);
    assertThat(aLeadingWhenBPromoted).containsExactly(false);
    // a resumes: it no longer trusts itself, finds its lock gone and its lease taken over.
    lockTick(a);
    a.tick();
    assertThat(a.isLeader()).isFalse();
    assertThat(edges).containsExactly("a promoted 1", "b promoted 2", "a demoted 1 LOCK_LOST");
  }

  @Test
  void a_candidate_holding_the_free_lock_waits_past_the_holders_lock_trust_before_it_takes_over() {
    LeaderElector a = leaderWithRecordedLock("a");
    LeaderElector b = elector("b");
    b.tick();
    locks.killHolder();
    time.advance(LOCK_TICK.multipliedBy(2));
    lockTick(b); // takes the free lock and starts waiting
    assertThat(locks.isFree()).isFalse();

    // Just before the wait is out (lock trust plus one lock tick), b has not taken over.
    time.advance(LOCK_TRUST.plus(LOCK_TICK).minusMillis(1));
    lockTick(b);
    assertThat(b.isLeader()).isFalse();
    assertThat(store.leases().read().holder()).isEqualTo("a");
    time.advance(Duration.ofMillis(1));
    lockTick(b);

    assertThat(b.isLeader()).isTrue();
    assertThat(a.isLeader()).isFalse();
  }

  @Test
  void
      a_running_leader_whose_session_was_killed_steps_down_as_soon_as_another_session_holds_its_lock() {
    LeaderElector a = leaderWithRecordedLock("a");
    LeaderElector b = elector("b");
    b.tick();
    locks.killHolder();
    time.advance(LOCK_TICK.multipliedBy(2));
    lockTick(b); // b holds the lock now

    time.advance(LOCK_TICK);
    lockTick(a);

    assertThat(a.isLeader()).isFalse();
    assertThat(store.leases().read().live()).as("a released the lease").isFalse();
    time.advance(LOCK_TICK);
    lockTick(b); // the lease is free: b acquires it without waiting out the take-over
    assertThat(b.isLeader()).isTrue();
    assertThat(edges).containsExactly("a promoted 1", "a demoted 1 LOCK_LOST", "b promoted 2");
  }

  @Test
  void a_leader_that_takes_its_lock_again_first_keeps_leading_and_the_candidate_takes_nothing() {
    LeaderElector a = leaderWithRecordedLock("a");
    LeaderElector b = elector("b");
    b.tick();
    locks.killHolder();

    time.advance(LOCK_TICK);
    lockTick(a); // a's check finds its session lost, reconnects and takes the lock again
    run(b, a, Duration.ofSeconds(2), () -> lockTick(a));

    assertThat(a.isLeader()).isTrue();
    assertThat(b.isLeader()).isFalse();
    assertThat(store.leases().read().epoch()).isEqualTo(1);
    assertThat(edges).containsExactly("a promoted 1");
  }

  @Test
  void a_leader_that_never_held_the_lock_is_not_taken_over_when_the_lock_comes_free() {
    // x leads and holds the lock, then freezes: its session stays open and keeps the lock.
    LeaderElector x = leaderWithRecordedLock("x");
    LeaderElector b = elector("b");
    LeaderElector c = elector("c");
    time.advance(TTL);
    b.tick(); // the lease expired: b acquires it by the rules, without the lock
    assertThat(b.isLeader()).isTrue();
    lockTick(b);
    assertThat(b.isLeader()).as("a leader that cannot take the lock keeps leading").isTrue();
    c.tick();

    // x resumes: past its trust window it demotes and lets its lock go.
    assertThat(x.isLeader()).isFalse();
    lockTick(x);
    assertThat(locks.isFree()).isTrue();
    // c saw b's lease without a lock record, so it does not touch the free lock; b takes it.
    run(c, b, Duration.ofSeconds(3), () -> lockTick(b));

    assertThat(b.isLeader()).isTrue();
    assertThat(c.isLeader()).isFalse();
    assertThat(store.leases().read().holder()).isEqualTo("b");
    assertThat(store.leases().read().sessionLocked()).isTrue();
    assertThat(edges).containsExactly("x promoted 1", "b promoted 2", "x demoted 1 SELF_FENCE");
  }

  @Test
  void
      a_leader_paused_longer_than_its_lock_trust_answers_false_until_a_check_finds_the_lock_kept() {
    LeaderElector a = leaderWithRecordedLock("a");

    time.advance(LOCK_TRUST);
    assertThat(a.isLeader()).isTrue();
    time.advance(Duration.ofNanos(1));
    assertThat(a.isLeader()).as("a check is overdue").isFalse();
    assertThat(a.fence()).isEmpty();

    lockTick(a); // the same session still holds the lock: nobody can have taken over
    assertThat(a.isLeader()).isTrue();
    assertThat(edges).containsExactly("a promoted 1");
  }

  @Test
  void the_acquire_delay_also_holds_back_a_take_over_through_the_session_lock() {
    LeaderElector a = leaderWithRecordedLock("a");
    LeaderElector delayed = elector("delayed", Duration.ofSeconds(2));
    delayed.tick();
    locks.killHolder();

    // While its delay runs, the delayed node lets the lock go after each try, for a preferred node.
    run(delayed, a, Duration.ofSeconds(2), () -> {});
    assertThat(delayed.isLeader()).isFalse();
    assertThat(locks.isFree()).isTrue();
    run(delayed, a, Duration.ofSeconds(1), () -> {});

    assertThat(delayed.isLeader()).isTrue();
    assertThat(delayed.fence().orElseThrow().epoch()).isEqualTo(2);
  }

  /** Loses the answer of the next renewal (it ran in the store or not), then answers again. */
  private static Runnable loseTheNextAnswer() {
    AtomicBoolean lose = new AtomicBoolean(true);
    return () -> {
      if (lose.getAndSet(false)) {
        throw new StoreUnavailableException("the renewal's answer is lost in this test", null);
      }
    };
  }

  @Test
  void a_kept_lock_after_a_re_take_whose_renewal_was_lost_is_trusted_only_after_a_renewal() {
    SlowLeases leases = new SlowLeases(store.leases(), locks);
    LeaderElector a = elector("a", Duration.ZERO, leases);
    a.tick();
    lockTick(a);
    LeaderElector b = elector("b");
    b.tick();
    // a is paused; its session is killed; b takes the lock and, after its wait, the lease over.
    locks.killHolder();
    run(b, a, Duration.ofSeconds(2), () -> {});
    assertThat(b.fence().orElseThrow().epoch()).isEqualTo(2);
    // b crashes (its session dies), and a resumes within its trust window: it takes the lock
    // again, and the renewal that would show it the take-over loses its answer.
    locks.killHolder();
    leases.beforeRenewReply(loseTheNextAnswer());
    time.advance(LOCK_TICK);
    lockTick(a); // TAKEN, unproven
    assertThat(a.isLeader()).isFalse();

    time.advance(LOCK_TICK);
    lockTick(a); // KEPT: since the re-take only

    assertThat(a.isLeader()).as("a believes it leads at a superseded epoch").isFalse();
    assertThat(edges).containsExactly("a promoted 1", "b promoted 2", "a demoted 1 SUPERSEDED");
  }

  @Test
  void once_a_renewal_proves_the_re_taken_lock_later_checks_trust_it_without_renewing() {
    SlowLeases leases = new SlowLeases(store.leases(), locks);
    LeaderElector a = elector("a", Duration.ZERO, leases);
    a.tick();
    lockTick(a);
    locks.killHolder();
    Runnable lose = loseTheNextAnswer();
    AtomicInteger renewals = new AtomicInteger();
    leases.beforeRenewReply(
        () -> {
          renewals.incrementAndGet();
          lose.run();
        });
    time.advance(LOCK_TICK);
    lockTick(a); // TAKEN, its renewal's answer lost

    time.advance(LOCK_TICK);
    lockTick(a); // KEPT: renews first, and the renewal proves it
    assertThat(a.isLeader()).isTrue();
    time.advance(LOCK_TICK);
    lockTick(a); // KEPT, proven: no renewal

    assertThat(renewals).hasValue(2);
    assertThat(a.isLeader()).isTrue();
    assertThat(edges).containsExactly("a promoted 1");
  }
}
