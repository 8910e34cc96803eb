package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.LockInfo;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §11, the rules K1 to K11 of {@link LockStore}: one holder at a time, a token that grows with
 * every acquisition, owner-and-token scoped renewals and releases, take-over after expiry by the
 * database clock, and the fence a holder's own writes carry.
 */
public abstract class LocksComplianceTest extends FixtureSupport {
  static final String NAME = "nightly-report";
  static final Duration HOUR = Duration.ofHours(1);
  static final Duration SHORT = Duration.ofMillis(200);

  Store store;
  LockStore locks;

  @BeforeEach
  void openStore() {
    store = freshStore();
    locks = store.locks();
  }

  private Optional<LockGrant> acquire(String holder, Duration ttl) {
    return locks.acquire(NAME, UUID.randomUUID().toString(), holder, ttl);
  }

  private LockInfo stored() {
    return locks.read(NAME).orElseThrow();
  }

  // ---- one holder, growing tokens

  @Test
  void one_holder_at_a_time_and_a_second_acquire_is_refused() {
    LockGrant first = acquire("node-a", HOUR).orElseThrow();
    LockInfo before = stored();

    assertThat(acquire("node-b", HOUR)).isEmpty();
    assertThat(acquire("node-a", HOUR)).as("the same holder, a new acquisition").isEmpty();

    assertThat(first.token()).isEqualTo(1);
    assertThat(stored()).usingRecursiveComparison().ignoringFields("readAt").isEqualTo(before);
    assertThat(before.held()).isTrue();
    assertThat(before.owner()).isEqualTo(first.owner());
    assertThat(before.holder()).isEqualTo("node-a");
  }

  @Test
  void the_token_increases_on_every_acquisition() {
    List<Long> tokens = new ArrayList<>();
    for (String holder : List.of("node-a", "node-b", "node-b", "node-a")) {
      LockGrant grant = acquire(holder, HOUR).orElseThrow();
      tokens.add(grant.token());
      assertThat(locks.release(grant, Duration.ZERO)).isTrue();
    }

    assertThat(tokens).containsExactly(1L, 2L, 3L, 4L);
    assertThat(stored().token()).isEqualTo(4);
  }

  @Test
  void an_acquisition_expires_a_ttl_after_the_database_clock() {
    Instant before = store.now();
    LockGrant grant = acquire("node-a", HOUR).orElseThrow();
    Instant after = store.now();

    assertThat(grant.acquiredAt()).isBetween(before, after);
    assertThat(grant.expiresAt()).isEqualTo(grant.acquiredAt().plus(HOUR));
    assertThat(stored().expiresAt()).isEqualTo(grant.expiresAt());
    assertThat(stored().acquiredAt()).isEqualTo(grant.acquiredAt());
  }

  @Test
  void an_expired_lock_is_taken_over_with_a_higher_token() {
    LockGrant stale = acquire("node-a", SHORT).orElseThrow();
    DatabaseClock.awaitPast(store, stale.expiresAt());

    LockGrant next = acquire("node-b", HOUR).orElseThrow();

    assertThat(next.token()).isGreaterThan(stale.token());
    assertThat(locks.renew(stale, HOUR)).isFalse();
    assertThat(locks.release(stale, Duration.ZERO)).isFalse();
    assertThat(stored().owner()).isEqualTo(next.owner());
    assertThat(stored().holder()).isEqualTo("node-b");
  }

  // ---- renew and release, scoped to the grant

  @Test
  void renewing_moves_the_expiry_and_a_lost_lock_is_not_renewed() {
    LockGrant grant = acquire("node-a", Duration.ofMinutes(1)).orElseThrow();
    Instant before = store.now();

    assertThat(locks.renew(grant, HOUR)).isTrue();

    assertThat(stored().expiresAt()).isAfterOrEqualTo(before.plus(HOUR));
    LockGrant madeUp =
        new LockGrant(
            NAME, grant.owner(), "node-a", grant.token() + 1, grant.acquiredAt(), Instant.MAX);
    assertThat(locks.renew(madeUp, HOUR)).as("another token").isFalse();
    assertThat(locks.release(grant, Duration.ZERO)).isTrue();
    assertThat(locks.renew(grant, HOUR)).as("after its release").isFalse();

    LockGrant lapsing = acquire("node-a", SHORT).orElseThrow();
    DatabaseClock.awaitPast(store, lapsing.expiresAt());
    assertThat(locks.renew(lapsing, HOUR)).as("after its expiry").isFalse();
    assertThat(stored().expiresAt()).isEqualTo(lapsing.expiresAt());
  }

  @Test
  void a_release_by_a_non_holder_changes_nothing() {
    LockGrant grant = acquire("node-a", HOUR).orElseThrow();
    LockInfo before = stored();
    LockGrant otherOwner =
        new LockGrant(
            NAME,
            UUID.randomUUID().toString(),
            "node-a",
            grant.token(),
            grant.acquiredAt(),
            grant.expiresAt());
    LockGrant otherToken =
        new LockGrant(
            NAME,
            grant.owner(),
            "node-a",
            grant.token() + 1,
            grant.acquiredAt(),
            grant.expiresAt());

    assertThat(locks.release(otherOwner, Duration.ZERO)).isFalse();
    assertThat(locks.release(otherToken, Duration.ZERO)).isFalse();

    assertThat(stored()).usingRecursiveComparison().ignoringFields("readAt").isEqualTo(before);
    assertThat(locks.holds(grant)).isTrue();
    assertThat(acquire("node-b", HOUR)).isEmpty();
  }

  @Test
  void a_release_keeps_the_lock_until_keep_for_has_passed_since_it_was_acquired() {
    LockGrant kept = acquire("node-a", HOUR).orElseThrow();

    assertThat(locks.release(kept, HOUR)).isTrue();

    LockInfo released = stored();
    assertThat(released.owner()).isNull();
    assertThat(released.held()).isFalse();
    assertThat(released.available()).isFalse();
    assertThat(released.expiresAt()).isEqualTo(kept.acquiredAt().plus(HOUR));
    assertThat(acquire("node-b", HOUR)).as("kept for an hour").isEmpty();
    assertThat(locks.holds(kept)).as("released: its holder no longer holds it").isFalse();
  }

  @Test
  void a_keep_for_that_has_passed_frees_the_lock() {
    LockGrant grant = acquire("node-a", HOUR).orElseThrow();

    assertThat(locks.release(grant, SHORT)).isTrue();

    assertThat(stored().expiresAt()).isAfterOrEqualTo(grant.acquiredAt().plus(SHORT));
    DatabaseClock.awaitPast(store, stored().expiresAt());
    LockGrant next = acquire("node-b", HOUR).orElseThrow();
    assertThat(next.token()).isEqualTo(2);
  }

  // ---- the fence a holder's writes carry

  @Test
  void a_stale_holders_fence_check_is_refused() {
    LockGrant stale = acquire("node-a", SHORT).orElseThrow();
    DatabaseClock.awaitPast(store, stale.expiresAt());

    assertThat(locks.holds(stale)).as("expired").isFalse();
    LockGrant next = acquire("node-b", HOUR).orElseThrow();
    assertThat(locks.holds(stale)).as("taken over").isFalse();
    assertThat(locks.holds(next)).isTrue();
  }

  @Test
  void a_stale_holders_fenced_write_is_refused() throws Exception {
    Optional<Connection> opened = fixture.openConnection();
    if (opened.isEmpty()) {
      assertThatThrownBy(() -> locks.holds(Connections.unusable(), acquire("a", HOUR).get()))
          .isInstanceOf(UnsupportedOperationException.class);
      return;
    }
    try (Connection connection = opened.get();
        FencedTable table = FencedTable.create(connection, store.describe().prefix())) {
      LockGrant stale = acquire("node-a", SHORT).orElseThrow();
      DatabaseClock.awaitPast(store, stale.expiresAt());
      assertThat(table.writeIfHeld(locks, stale, "expired")).isFalse();
      LockGrant next = acquire("node-b", HOUR).orElseThrow();

      assertThat(table.writeIfHeld(locks, stale, "stale")).isFalse();
      assertThat(table.writeIfHeld(locks, next, "next")).isTrue();

      assertThat(table.writes()).containsExactly(next.token() + ":next");
    }
  }

  @Test
  void a_take_over_waits_for_a_fenced_write_in_progress() throws Exception {
    Optional<Connection> opened = fixture.openConnection();
    if (opened.isEmpty()) {
      // No transactions to hold a row in: the store refuses a connection instead (K10).
      LockGrant grant = acquire("node-a", HOUR).orElseThrow();
      assertThatThrownBy(() -> locks.holds(Connections.unusable(), grant))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("holds(grant)");
      return;
    }
    try (Connection connection = opened.get();
        FencedTable table = FencedTable.create(connection, store.describe().prefix())) {
      // Long enough that the fence is surely taken before it lapses, even on a busy machine.
      LockGrant holder = acquire("node-a", Duration.ofSeconds(3)).orElseThrow();
      connection.setAutoCommit(false);
      assertThat(locks.holds(connection, holder)).isTrue();
      DatabaseClock.awaitPast(store, holder.expiresAt());

      CompletableFuture<Optional<LockGrant>> takeOver =
          CompletableFuture.supplyAsync(() -> acquire("node-b", HOUR));
      // Not done while the fenced transaction is open, even before it writes: the take-over
      // needs the row the fence locked (SQLite: the write lock the fence took).
      assertThat(takeOverAfter(takeOver, Duration.ofMillis(300))).isEmpty();
      table.insert(holder.token(), "in progress");
      connection.commit();
      connection.setAutoCommit(true);

      LockGrant next = takeOver.get(30, TimeUnit.SECONDS).orElseThrow();
      assertThat(next.token()).isGreaterThan(holder.token());
      assertThat(table.writes()).containsExactly(holder.token() + ":in progress");
    }
  }

  private static Optional<Optional<LockGrant>> takeOverAfter(
      CompletableFuture<Optional<LockGrant>> takeOver, Duration wait) {
    try {
      return Optional.of(takeOver.get(wait.toMillis(), TimeUnit.MILLISECONDS));
    } catch (java.util.concurrent.TimeoutException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw new AssertionError("the take-over failed: " + e, e);
    }
  }

  // ---- races, reads, bad input, failures

  @Test
  void eight_acquirers_race_and_exactly_one_holds() {
    List<Callable<Optional<LockGrant>>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String holder = "node-" + i;
      calls.add(() -> acquire(holder, HOUR));
    }

    List<Optional<LockGrant>> results = Race.run(calls);

    List<LockGrant> won = results.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    assertThat(won.get(0).token()).isEqualTo(1);
    assertThat(stored().owner()).isEqualTo(won.get(0).owner());
  }

  @Test
  void eight_acquirers_race_for_an_expired_lock_and_exactly_one_takes_it() {
    LockGrant stale = acquire("node-x", SHORT).orElseThrow();
    DatabaseClock.awaitPast(store, stale.expiresAt());
    List<Callable<Optional<LockGrant>>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String holder = "node-" + i;
      calls.add(() -> acquire(holder, HOUR));
    }

    List<LockGrant> won = Race.run(calls).stream().flatMap(Optional::stream).toList();

    assertThat(won).hasSize(1);
    assertThat(won.get(0).token()).isEqualTo(2);
  }

  /**
   * K2 under sustained contention: acquirers that keep asking for one name that exists, held or
   * just released, are granted or refused, never failed. (On MariaDB an acquisition that first
   * tried to insert the name took a shared lock on the present row and then deadlocked with its
   * rivals' take-over updates, until retries ran out.)
   */
  @Test
  void acquirers_that_keep_contending_for_a_present_name_are_granted_or_refused_never_failed() {
    assertThat(acquire("node-first", HOUR).map(grant -> locks.release(grant, Duration.ZERO)))
        .contains(true);
    AtomicReference<String> holding = new AtomicReference<>();
    List<Callable<Integer>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String holder = "node-" + i;
      calls.add(
          () -> {
            int granted = 0;
            for (int round = 0; round < 40; round++) {
              Optional<LockGrant> grant = acquire(holder, HOUR);
              if (grant.isPresent()) {
                granted++;
                assertThat(holding.compareAndSet(null, holder))
                    .as("%s was granted the lock while %s held it", holder, holding.get())
                    .isTrue();
                holding.set(null);
                assertThat(locks.release(grant.get(), Duration.ZERO)).isTrue();
              }
            }
            return granted;
          });
    }

    int granted = Race.run(calls).stream().mapToInt(Integer::intValue).sum();

    assertThat(granted).isPositive();
    assertThat(stored().token()).isEqualTo(1L + granted);
  }

  @Test
  void listing_shows_holder_token_and_expiry_and_changes_nothing() {
    LockGrant a = locks.acquire("b-lock", UUID.randomUUID().toString(), "node-a", HOUR).get();
    LockGrant b = locks.acquire("a-lock", UUID.randomUUID().toString(), "node-b", HOUR).get();
    assertThat(locks.release(b, Duration.ZERO)).isTrue();

    List<LockInfo> listed = locks.list(100);

    assertThat(listed).extracting(LockInfo::name).containsExactly("a-lock", "b-lock");
    LockInfo held = listed.get(1);
    assertThat(held.holder()).isEqualTo("node-a");
    assertThat(held.owner()).isEqualTo(a.owner());
    assertThat(held.token()).isEqualTo(1);
    assertThat(held.expiresAt()).isEqualTo(a.expiresAt());
    assertThat(held.held()).isTrue();
    assertThat(listed.get(0).held()).isFalse();
    assertThat(listed.get(0).available()).isTrue();
    assertThat(locks.list(1)).extracting(LockInfo::name).containsExactly("a-lock");
    assertThat(locks.read("never-taken")).isEmpty();
    assertThat(locks.list(100)).hasSize(2);
    for (int bad : new int[] {0, -1, 10_001}) {
      assertThatThrownBy(() -> locks.list(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("limit");
    }
  }

  @Test
  void bad_input_is_refused_naming_it_and_changes_nothing() {
    String owner = UUID.randomUUID().toString();
    assertThatThrownBy(() -> locks.acquire(" padded", owner, "node-a", HOUR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock name");
    assertThatThrownBy(() -> locks.acquire("x".repeat(129), owner, "node-a", HOUR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 128");
    assertThatThrownBy(() -> locks.acquire("tab\there", owner, "node-a", HOUR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control characters");
    assertThatThrownBy(() -> locks.acquire(NAME, " ", "node-a", HOUR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("owner");
    assertThatThrownBy(() -> locks.acquire(NAME, owner, "", HOUR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lock holder");
    for (Duration ttl : List.of(Duration.ZERO, Duration.ofMillis(-1), Duration.ofDays(366))) {
      assertThatThrownBy(() -> locks.acquire(NAME, owner, "node-a", ttl))
          .as("ttl %s", ttl)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("TTL");
    }
    assertThat(locks.list(100)).isEmpty();

    LockGrant grant = acquire("node-a", HOUR).orElseThrow();
    assertThatThrownBy(() -> locks.renew(grant, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> locks.release(grant, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(locks.holds(grant)).isTrue();
    assertThat(stored().expiresAt()).isEqualTo(grant.expiresAt());
  }

  @Test
  void the_longest_ttl_allowed_holds_for_that_long_on_the_database_clock() {
    Duration longest = io.tenure.Limits.MAX_DURATION;
    Instant before = store.now();
    LockGrant grant = acquire("node-a", longest).orElseThrow();

    assertThat(grant.expiresAt()).isAfterOrEqualTo(before.plus(longest));
    assertThat(locks.renew(grant, longest)).isTrue();
    assertThat(locks.release(grant, longest)).isTrue();
    assertThat(stored().expiresAt()).isEqualTo(grant.acquiredAt().plus(longest));
  }

  @Test
  void a_closed_store_refuses_lock_calls_as_unavailable_and_a_dropped_table_as_missing() {
    Store closed = freshStore();
    LockStore closedLocks = closed.locks();
    closed.close();

    assertThatThrownBy(() -> closedLocks.acquire(NAME, "o", "h", HOUR))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedLocks.list(10)).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedLocks.read(NAME)).isInstanceOf(StoreUnavailableException.class);

    TablePrefix prefix = freshPrefix();
    LockStore dropped = fixture.open(prefix).locks();
    fixture.dropTables(prefix);

    assertThatThrownBy(() -> dropped.acquire(NAME, "o", "h", HOUR))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.list(10)).isInstanceOf(SchemaMissingException.class);
  }
}
