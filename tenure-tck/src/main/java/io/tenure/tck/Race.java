package io.tenure.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs calls on separate threads and collects their results; a timeout is a failure, not a wait.
 */
public final class Race {
  /** Longest any race in the kit may take before it is reported as hung. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private Race() {}

  /**
   * Runs every call on its own thread, all released together, and returns results in call order.
   *
   * @throws AssertionError if a call threw (with the cause) or the race hung past {@link #TIMEOUT}
   */
  public static <T> List<T> run(List<Callable<T>> calls) {
    CyclicBarrier start = new CyclicBarrier(calls.size());
    ExecutorService pool = Executors.newFixedThreadPool(calls.size());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> call : calls) {
        futures.add(
            pool.submit(
                () -> {
                  start.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                  return call.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
      }
      return results;
    } catch (ExecutionException e) {
      throw new AssertionError("a racing call failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("race did not finish within " + TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A barrier for {@code parties} threads that fails loudly instead of hanging.
   *
   * @return an action that waits until all parties arrive
   */
  public static Runnable barrier(int parties) {
    CyclicBarrier barrier = new CyclicBarrier(parties);
    return () -> {
      try {
        barrier.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        throw new AssertionError("barrier of " + parties + " broke: " + e, e);
      }
    };
  }
}
