package io.tenure.tck;

import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;

/**
 * Waits on the database clock: "until the database says it is past T". A condition with a bound,
 * not a sleep to let something race.
 */
public final class DatabaseClock {
  private static final Duration BOUND = Duration.ofSeconds(30);

  private DatabaseClock() {}

  /**
   * Returns once {@code store.now()} is strictly after {@code instant}.
   *
   * @throws AssertionError if that takes longer than 30 seconds
   */
  public static void awaitPast(Store store, Instant instant) {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!store.now().isAfter(instant)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("database clock did not pass " + instant + " within " + BOUND);
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
