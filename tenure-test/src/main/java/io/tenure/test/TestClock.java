package io.tenure.test;

import io.tenure.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The time a test runs on.
 *
 * <p><b>On the in-memory store</b> ({@link TenureExtension#inMemory()}, the default) it is both
 * clocks Tenure reads: the store's database clock, which decides every delay, retry backoff, lease
 * and dedupe window, retention and schedule slot; and the monotonic {@link #ticker()} that {@link
 * TenureTestKit#node()} gives a node (heartbeats, lease renewals, polls) and that the drain times
 * handlers with. It stands still, at {@link #DEFAULT_START} unless {@link
 * TenureExtension#startingAt} says otherwise, until the test moves it with {@link #advance} or
 * {@link #set}; it only moves forward.
 *
 * <p><b>On SQLite and on a server database</b> the database reads its own clock inside every SQL
 * statement, and no test can move it: {@link #now()} reads it, and {@link #advance} and {@link
 * #set} refuse with an {@link UnsupportedOperationException} naming the store, rather than move
 * only the ticker (which would put a node's deadlines out of step with its database). What waits on
 * time then waits in real time; the rest of the kit works as on the in-memory store. See
 * docs/TESTING-YOUR-APP.md.
 *
 * <p>Thread-safe: nodes read it from their own threads.
 */
public final class TestClock {
  /** Where an in-memory store's clock starts: a fixed instant, so every run sees the same times. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

  /** The ticker's reading at the start; only differences mean anything. */
  private static final long TICKER_ORIGIN = 1_000_000_000L;

  private final @Nullable Instant start;
  private final AtomicLong elapsedNanos = new AtomicLong();
  private final Supplier<Instant> databaseNow;
  private final String store;

  private TestClock(@Nullable Instant start, Supplier<Instant> databaseNow, String store) {
    this.start = start;
    this.databaseNow = databaseNow;
    this.store = store;
  }

  /** A clock the test moves, for an in-memory store built on {@link #instantSource()}. */
  static TestClock movable(Instant start) {
    // Its own time is its database's: the supplier is never read.
    return new TestClock(start, () -> start, "the in-memory store");
  }

  /**
   * The clock of a database that keeps its own.
   *
   * @param databaseNow reads the database's clock
   * @param store the store, as its refusals name it
   */
  static TestClock ofDatabase(Supplier<Instant> databaseNow, String store) {
    return new TestClock(null, databaseNow, store);
  }

  /**
   * @return the time now: the test's on the in-memory store, else the database's (a read)
   */
  public Instant now() {
    return start != null ? start.plusNanos(elapsedNanos.get()) : databaseNow.get();
  }

  /**
   * @return whether {@link #advance} and {@link #set} can move this clock: true on the in-memory
   *     store only
   */
  public boolean movable() {
    return start != null;
  }

  /**
   * Moves the clock forward. Whatever comes due by the new time (a delayed or retried message, an
   * expired lease, a schedule slot) is due at once; nothing runs by itself until something looks:
   * {@link TenureTestKit#drain}, {@link TenureTestKit#fireDueSchedules()}, or a node's threads.
   *
   * @param by zero or more
   * @return the time after the move
   * @throws IllegalArgumentException if {@code by} is null or negative, or moves the clock past
   *     what it can count (about 292 years from its start)
   * @throws UnsupportedOperationException on a SQLite or server store, whose database keeps its own
   *     clock (nothing moved)
   */
  public Instant advance(Duration by) {
    if (by == null) {
      throw new IllegalArgumentException("duration to advance by must not be null");
    }
    if (by.isNegative()) {
      throw new IllegalArgumentException(
          "the test clock only moves forward; cannot advance it by " + by);
    }
    requireMovable("advance(" + by + ")");
    long nanos = nanos(by, "advance it by " + by);
    while (true) {
      long current = elapsedNanos.get();
      long next;
      try {
        next = Math.addExact(current, nanos);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "cannot advance the test clock by " + by + ": past what it can count from its start");
      }
      if (elapsedNanos.compareAndSet(current, next)) {
        return now();
      }
    }
  }

  /**
   * Moves the clock forward to {@code to}, as {@link #advance} does.
   *
   * @param to now or later
   * @throws IllegalArgumentException if {@code to} is null, earlier than now (the ticker nodes read
   *     is monotonic), or too far from the start to count
   * @throws UnsupportedOperationException on a SQLite or server store (nothing moved)
   */
  public void set(Instant to) {
    if (to == null) {
      throw new IllegalArgumentException("instant to set the clock to must not be null");
    }
    requireMovable("set(" + to + ")");
    long target = nanos(Duration.between(start, to), "set it to " + to);
    while (true) {
      long current = elapsedNanos.get();
      if (target < current) {
        throw new IllegalArgumentException(
            "the test clock only moves forward: it is " + now() + ", cannot set it back to " + to);
      }
      if (elapsedNanos.compareAndSet(current, target)) {
        return;
      }
    }
  }

  /**
   * @return the monotonic clock for a node's local deadlines ({@link
   *     io.tenure.TenureNodeBuilder#ticker}): this clock on the in-memory store, the system's on
   *     SQLite and server stores
   */
  public Ticker ticker() {
    return start != null ? () -> TICKER_ORIGIN + elapsedNanos.get() : Ticker.system();
  }

  /** The in-memory store's database clock; only for a movable clock. */
  InstantSource instantSource() {
    if (start == null) {
      throw new IllegalStateException("a database clock is not an instant source");
    }
    return this::now;
  }

  /**
   * @throws UnsupportedOperationException naming {@code what} and the store if this clock is the
   *     database's
   */
  void requireMovable(String what) {
    if (start == null) {
      throw new UnsupportedOperationException(
          "TestClock."
              + what
              + " refused: "
              + store
              + " reads its own database clock inside every statement, and no test can move it"
              + " (nothing was moved). Step through delays, backoff, leases and schedule slots on"
              + " the in-memory store (TenureExtension.inMemory()), or wait in real time here");
    }
  }

  private static long nanos(Duration duration, String what) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "cannot " + what + ": past what the test clock can count from its start");
    }
  }

  @Override
  public String toString() {
    return start != null
        ? "TestClock[" + now() + ", moved by the test]"
        : "TestClock[the database clock of " + store + "]";
  }
}
