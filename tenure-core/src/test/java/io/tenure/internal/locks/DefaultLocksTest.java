package io.tenure.internal.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.HeldLock;
import io.tenure.LockInfo;
import io.tenure.inmemory.InMemoryDatabase;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * SPEC §11 in one process: keep-alive, loss reported never silently, runExclusively's keep-for,
 * driven by a manual ticker and database clock (one keeper pass per {@code tick}).
 */
class DefaultLocksTest {
  private static final Duration TTL = Duration.ofSeconds(30);

  private final ManualTime time = new ManualTime();
  private final InMemoryDatabase database = InMemoryDatabase.fresh();
  private final InMemoryStore store =
      InMemoryStore.builder().database(database).clock(time.databaseClock()).build();
  private final DefaultLocks locks = new DefaultLocks(store.locks(), "api-1", time.ticker(), false);
  private final DefaultLocks peer =
      new DefaultLocks(
          InMemoryStore.builder().database(database).clock(time.databaseClock()).build().locks(),
          "api-2",
          time.ticker(),
          false);

  @Test
  void a_held_lock_is_renewed_every_third_of_its_ttl_and_outlives_it() {
    HeldLock lock = locks.tryAcquire("report", TTL).orElseThrow();

    for (int i = 0; i < 10; i++) {
      time.advance(TTL.dividedBy(3));
      locks.tick();
    }

    assertThat(lock.stillHeld()).isTrue();
    assertThat(peer.tryAcquire("report", TTL)).as("renewed past ten thirds of its TTL").isEmpty();
    assertThat(store.locks().read("report").orElseThrow().expiresAt())
        .isEqualTo(store.now().plus(TTL));
  }

  @Test
  void a_second_acquire_is_refused_and_a_closed_lock_is_free_at_once() {
    HeldLock lock = locks.tryAcquire("report", TTL).orElseThrow();
    assertThat(peer.tryAcquire("report", TTL)).isEmpty();

    lock.close();
    lock.close();

    assertThat(lock.stillHeld()).isFalse();
    HeldLock next = peer.tryAcquire("report", TTL).orElseThrow();
    assertThat(next.token()).isEqualTo(lock.token() + 1);
    assertThat(next.holder()).isEqualTo("api-2");
  }

  @Test
  void a_lock_taken_over_after_a_missed_renewal_is_reported_lost_once() {
    HeldLock lock = locks.tryAcquire("report", TTL).orElseThrow();
    AtomicInteger lost = new AtomicInteger();
    lock.onLost(l -> lost.incrementAndGet());
    // The keeper does not run for a whole TTL (a paused process): the lock expires and a peer
    // takes it. Locally the lock was already untrusted at nine tenths of the TTL.
    time.advance(TTL.plusSeconds(1));
    assertThat(lock.stillHeld()).isFalse();
    HeldLock next = peer.tryAcquire("report", TTL).orElseThrow();

    locks.tick();
    locks.tick();

    assertThat(lost).hasValue(1);
    assertThat(next.token()).isGreaterThan(lock.token());
    lock.close();
    assertThat(next.stillHeld()).as("the stale holder's close releases nothing").isTrue();
    assertThat(store.locks().read("report").orElseThrow().owner()).isNotNull();
  }

  @Test
  void a_refused_renewal_loses_the_lock_at_once_and_a_late_listener_hears_it() {
    HeldLock lock = locks.tryAcquire("report", TTL).orElseThrow();
    // Released behind the holder's back: its next renewal is refused.
    LockGrant grant = grantOf(lock);
    assertThat(store.locks().release(grant, Duration.ZERO)).isTrue();
    time.advance(TTL.dividedBy(3));

    locks.tick();

    assertThat(lock.stillHeld()).isFalse();
    AtomicBoolean heard = new AtomicBoolean();
    lock.onLost(l -> heard.set(true));
    assertThat(heard).isTrue();
  }

  @Test
  void failing_renewals_are_retried_until_nine_tenths_of_the_ttl_then_the_lock_is_lost() {
    FailingLocks failing = new FailingLocks(store.locks());
    DefaultLocks flaky = new DefaultLocks(failing, "api-1", time.ticker(), false);
    HeldLock lock = flaky.tryAcquire("report", TTL).orElseThrow();
    List<String> events = new ArrayList<>();
    lock.onLost(l -> events.add("lost"));
    failing.down = true;

    time.advance(TTL.dividedBy(3));
    flaky.tick();
    time.advance(TTL.dividedBy(3));
    flaky.tick();
    assertThat(lock.stillHeld()).as("at two thirds, still trusted").isTrue();
    assertThat(failing.renewals).hasValue(2);
    assertThat(events).isEmpty();

    time.advance(TTL.dividedBy(4)); // past nine tenths
    assertThat(lock.stillHeld()).isFalse();
    flaky.tick();
    assertThat(events).containsExactly("lost");
  }

  @Test
  void a_renewal_is_trusted_from_before_it_was_sent() {
    SlowLocks slow = new SlowLocks(store.locks(), time);
    DefaultLocks slowLocks = new DefaultLocks(slow, "api-1", time.ticker(), false);
    HeldLock lock = slowLocks.tryAcquire("report", TTL).orElseThrow();
    slow.renewTakes = TTL.dividedBy(2);

    time.advance(TTL.dividedBy(3));
    slowLocks.tick(); // sent at 1/3, answered at 5/6 of the TTL

    // Trusted until 1/3 + 9/10 of the TTL from the start, not from the answer.
    time.advance(TTL.multipliedBy(9).dividedBy(10).minus(TTL.dividedBy(2)).minusMillis(1));
    assertThat(lock.stillHeld()).isTrue();
    time.advance(Duration.ofMillis(2));
    assertThat(lock.stillHeld()).isFalse();
  }

  @Test
  void run_exclusively_runs_the_body_once_and_skips_where_the_lock_is_held() throws Exception {
    List<Long> ran = new ArrayList<>();
    HeldLock elsewhere = peer.tryAcquire("report", TTL).orElseThrow();

    assertThat(locks.runExclusively("report", TTL, lock -> ran.add(lock.token()))).isFalse();
    elsewhere.close();
    assertThat(locks.runExclusively("report", TTL, lock -> ran.add(lock.token()))).isTrue();

    assertThat(ran).containsExactly(2L);
    assertThat(store.locks().read("report").orElseThrow().available()).isTrue();
  }

  @Test
  void run_exclusively_keeps_the_lock_for_at_least_its_time_since_it_was_taken() throws Exception {
    assertThat(
            locks.runExclusively(
                "report", Duration.ofMinutes(10), Duration.ofMinutes(1), lock -> {}))
        .isTrue();

    assertThat(peer.runExclusively("report", TTL, lock -> {})).isFalse();
    time.advance(Duration.ofMinutes(1));
    assertThat(peer.runExclusively("report", TTL, lock -> {})).isTrue();
  }

  @Test
  void run_exclusively_releases_the_lock_when_the_body_throws_and_rethrows_it() {
    Exception failure = new java.io.IOException("disk full");

    assertThatThrownBy(
            () ->
                locks.runExclusively(
                    "report",
                    TTL,
                    lock -> {
                      throw failure;
                    }))
        .isSameAs(failure);

    assertThat(store.locks().read("report").orElseThrow().available()).isTrue();
  }

  @Test
  void bad_arguments_are_refused_naming_them_and_take_nothing() {
    assertThatThrownBy(() -> locks.tryAcquire("", TTL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock name");
    assertThatThrownBy(() -> locks.tryAcquire("report", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TTL");
    assertThatThrownBy(
            () ->
                locks.runExclusively(
                    "report", Duration.ofMinutes(1), Duration.ofMinutes(2), lock -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lockAtLeastFor (PT2M) must not be longer than lockAtMostFor (PT1M)");
    assertThatThrownBy(() -> locks.runExclusively("report", TTL, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task");
    assertThatThrownBy(() -> new DefaultLocks(store.locks(), " ", time.ticker(), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock holder");
    assertThat(locks.list()).isEmpty();
  }

  @Test
  void closing_releases_every_lock_still_held() {
    HeldLock a = locks.tryAcquire("a", TTL).orElseThrow();
    locks.tryAcquire("b", TTL).orElseThrow();

    locks.close();

    assertThat(a.stillHeld()).isFalse();
    assertThat(locks.list()).allSatisfy(info -> assertThat(info.available()).isTrue());
    assertThat(locks.list()).extracting(LockInfo::name).containsExactly("a", "b");
  }

  private LockGrant grantOf(HeldLock lock) {
    LockInfo info = store.locks().read(lock.name()).orElseThrow();
    return new LockGrant(
        info.name(),
        info.owner(),
        info.holder(),
        info.token(),
        info.acquiredAt(),
        info.expiresAt());
  }

  /** A store whose renewals fail while {@code down}. */
  private static final class FailingLocks extends ForwardingLocks {
    volatile boolean down;
    final AtomicInteger renewals = new AtomicInteger();

    FailingLocks(LockStore delegate) {
      super(delegate);
    }

    @Override
    public boolean renew(LockGrant grant, Duration ttl) {
      renewals.incrementAndGet();
      if (down) {
        throw new io.tenure.StoreUnavailableException("database down", null);
      }
      return super.renew(grant, ttl);
    }
  }

  /** A store whose renewals answer {@code renewTakes} after they were sent. */
  private static final class SlowLocks extends ForwardingLocks {
    private final ManualTime time;
    volatile Duration renewTakes = Duration.ZERO;

    SlowLocks(LockStore delegate, ManualTime time) {
      super(delegate);
      this.time = time;
    }

    @Override
    public boolean renew(LockGrant grant, Duration ttl) {
      boolean renewed = super.renew(grant, ttl);
      time.advance(renewTakes);
      return renewed;
    }
  }

  private static class ForwardingLocks implements LockStore {
    private final LockStore delegate;

    ForwardingLocks(LockStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public Optional<LockGrant> acquire(String name, String owner, String holder, Duration ttl) {
      return delegate.acquire(name, owner, holder, ttl);
    }

    @Override
    public boolean renew(LockGrant grant, Duration ttl) {
      return delegate.renew(grant, ttl);
    }

    @Override
    public boolean release(LockGrant grant, Duration keepFor) {
      return delegate.release(grant, keepFor);
    }

    @Override
    public boolean holds(LockGrant grant) {
      return delegate.holds(grant);
    }

    @Override
    public boolean holds(Connection transaction, LockGrant grant) {
      return delegate.holds(transaction, grant);
    }

    @Override
    public Optional<LockInfo> read(String name) {
      return delegate.read(name);
    }

    @Override
    public java.util.List<LockInfo> list(int limit) {
      return delegate.list(limit);
    }
  }
}
