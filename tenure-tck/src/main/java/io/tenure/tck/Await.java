package io.tenure.tck;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition with a bound: the test proceeds on the condition, never on a guess of time.
 */
public final class Await {
  private Await() {}

  /**
   * @throws AssertionError naming {@code what} if the condition does not hold within {@code bound}
   */
  public static void until(Duration bound, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + bound + ": " + what);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
