package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Limits;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §4: the leader lease and its fencing epoch, on the database clock. */
public abstract class LeadershipComplianceTest extends FixtureSupport {
  private static final Duration TTL = Duration.ofMinutes(1);
  private static final Duration SHORT_TTL = Duration.ofMillis(200);

  /** L13: the providers whose stores MUST have a session lock (SQLite: on a file). */
  private static final List<String> LOCKING_PROVIDERS =
      List.of("postgresql", "mariadb", "mysql", "sqlite");

  private Store store;
  private LeaseStore leases;
  private final String a = UUID.randomUUID().toString();
  private final String b = UUID.randomUUID().toString();

  @BeforeEach
  void openStore() {
    store = freshStore();
    leases = store.leases();
  }

  @Test
  void a_lease_never_acquired_has_epoch_0_and_no_holder() {
    Lease lease = leases.read();
    assertThat(lease.epoch()).isZero();
    assertThat(lease.holder()).isNull();
    assertThat(lease.live()).isFalse();
  }

  @Test
  void the_first_acquire_gives_epoch_1_expiring_ttl_after_the_database_clock() {
    Lease lease = leases.acquire(a, TTL).orElseThrow();

    assertThat(lease.holder()).isEqualTo(a);
    assertThat(lease.epoch()).isEqualTo(1);
    assertThat(Duration.between(lease.readAt(), lease.expiresAt()))
        .isBetween(TTL.minusSeconds(2), TTL);
    assertThat(Duration.between(lease.acquiredAt(), lease.readAt()))
        .isBetween(Duration.ZERO, Duration.ofSeconds(2));
    assertThat(leases.read()).satisfies(read -> assertThat(read.heldBy(a)).isTrue());
  }

  @Test
  void renew_extends_the_lease_and_keeps_the_epoch() {
    Lease first = leases.acquire(a, TTL).orElseThrow();
    DatabaseClock.awaitPast(store, first.readAt());

    Lease renewed = leases.renew(a, first.epoch(), TTL).orElseThrow();

    assertThat(renewed.epoch()).isEqualTo(first.epoch());
    assertThat(renewed.expiresAt()).isAfter(first.expiresAt());
    assertThat(renewed.acquiredAt())
        .as("renewals keep the acquisition time")
        .isEqualTo(first.acquiredAt());
  }

  @Test
  void the_holder_acquiring_again_keeps_its_epoch() {
    long epoch = leases.acquire(a, TTL).orElseThrow().epoch();
    assertThat(leases.acquire(a, TTL).orElseThrow().epoch()).isEqualTo(epoch);
  }

  @Test
  void a_standby_cannot_acquire_a_live_lease() {
    leases.acquire(a, TTL).orElseThrow();

    assertThat(leases.acquire(b, TTL)).isEmpty();

    assertThat(leases.read().holder()).isEqualTo(a);
    assertThat(leases.read().epoch()).isEqualTo(1);
  }

  @Test
  void a_standby_acquires_after_expiry_with_the_epoch_plus_one() {
    Lease expiring = leases.acquire(a, SHORT_TTL).orElseThrow();
    DatabaseClock.awaitPast(store, expiring.expiresAt());

    Lease taken = leases.acquire(b, TTL).orElseThrow();

    assertThat(taken.holder()).isEqualTo(b);
    assertThat(taken.epoch()).isEqualTo(expiring.epoch() + 1);
  }

  @Test
  void a_clean_release_lets_a_standby_acquire_at_once() {
    Lease held = leases.acquire(a, TTL).orElseThrow();

    assertThat(leases.release(a, held.epoch())).isTrue();

    Lease taken = leases.acquire(b, TTL).orElseThrow();
    assertThat(taken.epoch()).isEqualTo(held.epoch() + 1);
    assertThat(leases.release(a, held.epoch())).isFalse();
  }

  @Test
  void release_by_a_node_that_does_not_hold_the_lease_changes_nothing() {
    Lease held = leases.acquire(a, TTL).orElseThrow();

    assertThat(leases.release(b, held.epoch())).isFalse();
    assertThat(leases.release(a, held.epoch() + 1)).isFalse();

    assertThat(leases.read().heldBy(a)).isTrue();
  }

  @Test
  void renew_by_a_superseded_holder_fails_and_changes_nothing() {
    Lease old = leases.acquire(a, TTL).orElseThrow();
    leases.release(a, old.epoch());
    Lease current = leases.acquire(b, TTL).orElseThrow();

    assertThat(leases.renew(a, old.epoch(), TTL)).isEmpty();
    assertThat(leases.renew(a, current.epoch(), TTL)).isEmpty();

    assertThat(leases.read().holder()).isEqualTo(b);
    assertThat(leases.read().expiresAt()).isEqualTo(current.expiresAt());
  }

  @Test
  void a_fence_is_current_only_for_the_live_holder_at_its_epoch() {
    Lease held = leases.acquire(a, TTL).orElseThrow();

    assertThat(leases.isCurrent(new LeaderFence(a, held.epoch()))).isTrue();
    assertThat(leases.isCurrent(new LeaderFence(a, held.epoch() - 1))).isFalse();
    assertThat(leases.isCurrent(new LeaderFence(b, held.epoch()))).isFalse();
    Lease expiring = leases.renew(a, held.epoch(), SHORT_TTL).orElseThrow();
    DatabaseClock.awaitPast(store, expiring.expiresAt());
    assertThat(leases.isCurrent(new LeaderFence(a, held.epoch()))).isFalse();
  }

  @Test
  void a_take_over_succeeds_only_on_the_holder_and_epoch_observed() {
    Lease held = leases.acquire(a, TTL).orElseThrow();
    assertThat(leases.recordSessionLock(a, held.epoch())).isTrue();

    assertThat(leases.takeOver(b, a, held.epoch() + 1, TTL)).isEmpty();
    assertThat(leases.takeOver(b, b, held.epoch(), TTL)).isEmpty();
    Lease taken = leases.takeOver(b, a, held.epoch(), TTL).orElseThrow();

    assertThat(taken.holder()).isEqualTo(b);
    assertThat(taken.epoch()).isEqualTo(held.epoch() + 1);
    assertThat(taken.acquiredAt()).isAfterOrEqualTo(held.acquiredAt());
    assertThat(taken.sessionLocked()).as("the new holder has not recorded its lock yet").isFalse();
    assertThat(leases.renew(a, held.epoch(), TTL)).isEmpty();
  }

  @Test
  void a_take_over_of_a_holder_that_never_recorded_the_session_lock_changes_nothing() {
    Lease held = leases.acquire(a, TTL).orElseThrow();
    assertThat(held.sessionLocked()).isFalse();

    assertThat(leases.takeOver(b, a, held.epoch(), TTL)).isEmpty();

    Lease after = leases.read();
    assertThat(after.holder()).isEqualTo(a);
    assertThat(after.epoch()).isEqualTo(held.epoch());
    assertThat(after.expiresAt()).isEqualTo(held.expiresAt());
  }

  @Test
  void only_the_live_holder_at_its_epoch_records_the_session_lock_and_renewals_keep_the_record() {
    // A long TTL while the record is checked (a short one can run out on a busy machine before
    // the holder records), then a short renewal to see an expired lease refused.
    Lease held = leases.acquire(a, TTL).orElseThrow();

    assertThat(leases.recordSessionLock(b, held.epoch())).isFalse();
    assertThat(leases.recordSessionLock(a, held.epoch() + 1)).isFalse();
    assertThat(leases.read().sessionLocked()).isFalse();
    assertThat(leases.recordSessionLock(a, held.epoch())).isTrue();
    assertThat(leases.recordSessionLock(a, held.epoch())).as("recording twice").isTrue();
    assertThat(leases.renew(a, held.epoch(), SHORT_TTL).orElseThrow().sessionLocked()).isTrue();

    Lease renewed = leases.read();
    DatabaseClock.awaitPast(store, renewed.expiresAt());
    assertThat(leases.recordSessionLock(a, held.epoch())).as("an expired lease").isFalse();
  }

  @Test
  void acquiring_clears_the_session_lock_record_also_for_the_holder_acquiring_again() {
    // Long TTLs until the expiry is wanted: a short one could run out between the calls on a busy
    // machine, and acquiring an expired lease starts a new epoch.
    Lease held = leases.acquire(a, TTL).orElseThrow();
    assertThat(leases.recordSessionLock(a, held.epoch())).isTrue();

    Lease again = leases.acquire(a, TTL).orElseThrow();

    assertThat(again.epoch()).isEqualTo(held.epoch());
    assertThat(again.sessionLocked()).isFalse();
    assertThat(leases.takeOver(b, a, held.epoch(), TTL)).isEmpty();
    assertThat(leases.recordSessionLock(a, held.epoch())).isTrue();
    leases.renew(a, held.epoch(), SHORT_TTL).orElseThrow();
    DatabaseClock.awaitPast(store, leases.read().expiresAt());
    assertThat(leases.acquire(b, TTL).orElseThrow().sessionLocked()).isFalse();
  }

  @Test
  void a_zero_negative_or_too_long_ttl_is_refused_by_name_and_changes_nothing() {
    Lease held = leases.acquire(a, TTL).orElseThrow();
    leases.recordSessionLock(a, held.epoch());

    List<Duration> refused =
        List.of(
            Duration.ZERO,
            Duration.ofMillis(-1),
            Limits.MAX_DURATION.plusNanos(1),
            Duration.parse("P1000000000D"));
    for (Duration bad : refused) {
      assertThatThrownBy(() -> leases.acquire(b, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("TTL")
          .hasMessageContaining(bad.toString());
      assertThatThrownBy(() -> leases.acquire(a, bad)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> leases.renew(a, held.epoch(), bad))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> leases.takeOver(b, a, held.epoch(), bad))
          .isInstanceOf(IllegalArgumentException.class);
    }

    Lease after = leases.read();
    assertThat(after.holder()).isEqualTo(a);
    assertThat(after.epoch()).isEqualTo(held.epoch());
    assertThat(after.expiresAt()).isEqualTo(held.expiresAt());
    assertThat(after.sessionLocked()).isTrue();
  }

  @Test
  void the_longest_ttl_allowed_works_for_every_lease_write_on_the_database_clock() {
    Duration longest = Limits.MAX_DURATION;

    Lease held = leases.acquire(a, longest).orElseThrow();
    assertExpiresAfter(held, longest);
    assertThat(leases.recordSessionLock(a, held.epoch())).isTrue();
    Lease renewed = leases.renew(a, held.epoch(), longest).orElseThrow();
    assertExpiresAfter(renewed, longest);
    assertThat(renewed.expiresAt()).isAfterOrEqualTo(held.expiresAt());
    assertThat(leases.isCurrent(new LeaderFence(a, held.epoch()))).isTrue();
    Lease taken = leases.takeOver(b, a, held.epoch(), longest).orElseThrow();
    assertExpiresAfter(taken, longest);
    assertThat(taken.epoch()).isEqualTo(held.epoch() + 1);
    assertThat(leases.release(b, taken.epoch())).isTrue();
    Lease again = leases.acquire(a, longest).orElseThrow();
    assertThat(again.epoch()).isEqualTo(taken.epoch() + 1);
    assertExpiresAfter(again, longest);
  }

  /**
   * The lease expires {@code ttl} after the database's now (its expiry is set before it is read).
   */
  private static void assertExpiresAfter(Lease lease, Duration ttl) {
    assertThat(Duration.between(lease.readAt(), lease.expiresAt()))
        .isBetween(ttl.minusSeconds(2), ttl);
  }

  @Test
  void of_eight_candidates_racing_for_an_expired_lease_exactly_one_wins() {
    Lease expiring = leases.acquire(a, SHORT_TTL).orElseThrow();
    DatabaseClock.awaitPast(store, expiring.expiresAt());
    List<Callable<Optional<Lease>>> candidates = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String candidate = UUID.randomUUID().toString();
      candidates.add(() -> leases.acquire(candidate, TTL));
    }

    List<Optional<Lease>> results = Race.run(candidates);

    List<Lease> winners = results.stream().flatMap(Optional::stream).toList();
    assertThat(winners).hasSize(1);
    assertThat(winners.get(0).epoch()).isEqualTo(expiring.epoch() + 1);
    assertThat(leases.read().holder()).isEqualTo(winners.get(0).holder());
  }

  /** L8: a second release finds the lease already expired and changes nothing. */
  @Test
  void a_released_lease_is_not_released_again_and_keeps_its_epoch() {
    Lease held = leases.acquire(a, TTL).orElseThrow();
    assertThat(leases.release(a, held.epoch())).isTrue();
    Lease released = leases.read();

    assertThat(leases.release(a, held.epoch())).isFalse();

    assertThat(leases.read().epoch()).isEqualTo(held.epoch());
    assertThat(leases.read().expiresAt()).isEqualTo(released.expiresAt());
    assertThat(leases.read().live()).isFalse();
  }

  /**
   * L13 to L16, with two locks of one store standing for two nodes: one session at a time, and a
   * released lock passes to the next session at once.
   */
  @Test
  void a_session_lock_is_held_by_one_session_at_a_time_and_passes_on_when_released() {
    Optional<LeaseStore.SessionLock> maybeFirst = leases.sessionLock();
    if (maybeFirst.isEmpty()) {
      // No session locks here: failover waits for the lease TTL. Every database provider has one.
      assertThat(store.describe().provider()).isNotIn(LOCKING_PROVIDERS);
      return;
    }
    try (LeaseStore.SessionLock first = maybeFirst.get();
        LeaseStore.SessionLock second = leases.sessionLock().orElseThrow()) {
      assertThat(first.hold()).isEqualTo(LeaseStore.SessionLock.Hold.TAKEN);
      assertThat(first.hold()).isEqualTo(LeaseStore.SessionLock.Hold.KEPT);
      assertThat(second.hold()).isEqualTo(LeaseStore.SessionLock.Hold.REFUSED);

      first.release();
      assertThat(second.hold()).isEqualTo(LeaseStore.SessionLock.Hold.TAKEN);
      assertThat(first.hold()).isEqualTo(LeaseStore.SessionLock.Hold.REFUSED);

      second.close();
      second.close();
      assertThat(first.hold())
          .as("closing released it")
          .isEqualTo(LeaseStore.SessionLock.Hold.TAKEN);
    }
  }
}
