package io.tenure.chaos;

import io.tenure.spi.Store;
import java.time.Duration;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The end of a run's quiet period, by progress rather than by the clock alone. Faults leave a
 * backlog, and the limited queue (3 in flight, 1 per group) drains it slowly: a run whose last
 * fault paused one node and stopped another could still be handling it when a fixed quiet period
 * ended, and its last messages were counted stranded a second before they ran. So after the quiet
 * period the run waits while the workload's queues still hold pending or in-flight messages and
 * handlers keep finishing them, a step at a time, up to a bound. A message the cluster stopped
 * working on is still found: a step in which nothing was handled ends the wait, and so does the
 * bound, and the checker then reports what is left as stranded.
 */
final class Settling {
  /** How long a step waits for at least one more message handled. */
  static final Duration STEP = Duration.ofSeconds(5);

  /** The longest wait beyond the quiet period. */
  static final Duration MAX = Duration.ofSeconds(60);

  /** The queues the producer fills; the scheduled queue gets a slot every second, forever. */
  private static final Set<String> PRODUCED =
      Set.of(
          ChaosWorkload.FIFO,
          ChaosWorkload.UNORDERED,
          ChaosWorkload.EXCLUSIVE,
          ChaosWorkload.LIMITED);

  private Settling() {}

  /**
   * Waits while the produced queues drain.
   *
   * @return how long it waited
   */
  static Duration await(Store store, History history) throws InterruptedException {
    long start = System.nanoTime();
    int steps =
        await(
            () -> unfinished(store),
            () -> handled(history),
            () -> Thread.sleep(STEP.toMillis()),
            (int) (MAX.toMillis() / STEP.toMillis()));
    return steps == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - start);
  }

  /** One step's wait. */
  interface Step {
    void sleep() throws InterruptedException;
  }

  /**
   * The wait's rule, apart from the clock and the store: step while something is unfinished and the
   * step before handled at least one message, at most {@code maxSteps} steps.
   *
   * @return the steps taken
   */
  static int await(LongSupplier unfinished, LongSupplier handled, Step step, int maxSteps)
      throws InterruptedException {
    long before = handled.getAsLong();
    int steps = 0;
    while (steps < maxSteps && unfinished.getAsLong() > 0) {
      step.sleep();
      steps++;
      long now = handled.getAsLong();
      if (now == before) {
        break; // nothing handled for a whole step: what is left, the checker judges
      }
      before = now;
    }
    return steps;
  }

  private static long unfinished(Store store) {
    return store.queues().stats().stream()
        .filter(stats -> PRODUCED.contains(stats.queue()))
        .mapToLong(stats -> stats.pending() + stats.inflight())
        .sum();
  }

  private static long handled(History history) {
    return history.readAll().stream()
        .filter(event -> event.kind() == HistoryEvent.Kind.HANDLED)
        .count();
  }
}
