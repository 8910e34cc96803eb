package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.HeldLock;
import io.tenure.Locks;
import io.tenure.Tenure;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The acquire/release loop every lock system runs, and Tenure's own system on it: {@code
 * Tenure.locks().tryAcquire(name, 30 s)}, then {@code close()} on the lock it got. Each thread
 * loops for a fixed time, as fast as it can; a refused acquisition is counted and tried again at
 * once.
 */
final class LockRuns {
  /** Every system's locks last this long: no renewal, expiry or keep-for falls within a run. */
  static final Duration TTL = Duration.ofSeconds(30);

  private LockRuns() {}

  /** The loop's shapes: threads and how many lock names they share. */
  enum Shape {
    ONE("1 thread, 1 name", 1, 1),
    SEPARATE("4 threads, 4 names", 4, 4),
    CONTENDED("4 threads, 1 name", 4, 1);

    final String label;
    final int threads;
    final int names;

    Shape(String label, int threads, int names) {
      this.label = label;
      this.threads = threads;
      this.names = names;
    }
  }

  /** One thread's view of a lock system: its own connection where the system has one. */
  interface Locker extends AutoCloseable {
    /**
     * @return what {@link #release} needs, or null when another holder has the lock
     */
    Object tryAcquire(String name) throws Exception;

    void release(Object held) throws Exception;

    @Override
    default void close() throws Exception {}
  }

  /**
   * A lock system opened for one run: its name, the store it runs on, a locker per thread, and what
   * drops its fresh tables and closes its pools.
   */
  record LockSystem(String name, String store, Lockers lockers, AutoCloseable cleanUp)
      implements AutoCloseable {
    /** A locker for one thread. */
    Locker locker() throws Exception {
      return lockers.open();
    }

    @Override
    public void close() throws Exception {
      cleanUp.close();
    }
  }

  /** Opens one thread's locker. */
  interface Lockers {
    Locker open() throws Exception;
  }

  /** One run's counts and latencies, in nanoseconds. */
  record Result(
      String system,
      String store,
      Shape shape,
      long nanos,
      long acquired,
      long refused,
      long errors,
      String firstError,
      long acquireP50,
      long acquireP99,
      long releaseP50,
      long releaseP99) {
    double acquiredPerSecond() {
      return acquired / (nanos / 1e9);
    }
  }

  /**
   * Runs {@code shape} on {@code system} for {@code duration}: every thread starts at once, each on
   * its own locker, thread i on name i modulo the shape's names (fresh names, never taken before).
   */
  static Result loop(LockSystem system, Shape shape, Duration duration) throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < shape.threads; i++) {
      workers.add(new Worker(system.locker(), "bench-" + run + "-" + (i % shape.names)));
    }
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads =
        workers.stream().map(w -> Thread.ofPlatform().start(() -> w.run(go, duration))).toList();
    long start = System.nanoTime();
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    long nanos = System.nanoTime() - start;
    Samples acquires = new Samples();
    Samples releases = new Samples();
    long acquired = 0;
    long refused = 0;
    long errors = 0;
    String firstError = "";
    for (Worker worker : workers) {
      worker.locker.close();
      acquires.addAll(worker.acquires);
      releases.addAll(worker.releases);
      acquired += worker.acquired;
      refused += worker.refused;
      errors += worker.errors;
      if (firstError.isEmpty() && worker.firstError != null) {
        firstError = worker.firstError.toString();
      }
    }
    return new Result(
        system.name(),
        system.store(),
        shape,
        nanos,
        acquired,
        refused,
        errors,
        firstError,
        acquires.percentile(50),
        acquires.percentile(99),
        releases.percentile(50),
        releases.percentile(99));
  }

  /** One thread of the loop. */
  private static final class Worker {
    final Locker locker;
    final String name;
    final Samples acquires = new Samples();
    final Samples releases = new Samples();
    long acquired;
    long refused;
    long errors;
    Exception firstError;

    Worker(Locker locker, String name) {
      this.locker = locker;
      this.name = name;
    }

    /**
     * Loops until the deadline. An acquire or release that throws is counted as an error (the first
     * one kept) and the loop goes on, as an application's next attempt would; a release that threw
     * leaves its lock to expire, so later attempts on its name are refused.
     */
    void run(CountDownLatch go, Duration duration) {
      try {
        go.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long deadline = System.nanoTime() + duration.toNanos();
      long now = System.nanoTime();
      while (now - deadline < 0) {
        Object held;
        try {
          held = locker.tryAcquire(name);
        } catch (Exception e) {
          failed(e);
          now = System.nanoTime();
          continue;
        }
        long acquiredAt = System.nanoTime();
        acquires.add(acquiredAt - now);
        if (held == null) {
          refused++;
          now = acquiredAt;
          continue;
        }
        acquired++;
        try {
          locker.release(held);
          now = System.nanoTime();
          releases.add(now - acquiredAt);
        } catch (Exception e) {
          failed(e);
          now = System.nanoTime();
        }
      }
    }

    private void failed(Exception e) {
      errors++;
      if (firstError == null) {
        firstError = e;
      }
    }
  }

  /** Latencies in nanoseconds, in a growing array. */
  static final class Samples {
    private long[] values = new long[1024];
    private int size;

    void add(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    void addAll(Samples other) {
      for (int i = 0; i < other.size; i++) {
        add(other.values[i]);
      }
    }

    int size() {
      return size;
    }

    /** Nearest rank; -1 when empty. */
    long percentile(double p) {
      if (size == 0) {
        return -1;
      }
      long[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      int index = (int) Math.ceil(p / 100.0 * size) - 1;
      return sorted[Math.max(0, Math.min(size - 1, index))];
    }
  }

  /**
   * Tenure's locks through the public facade: one {@link Tenure} on a fresh table prefix (pool of
   * 10), shared by the threads as an application shares it.
   */
  static LockSystem tenure(String url) {
    TablePrefix prefix = freshPrefix();
    Tenure tenure = Tenure.builder(url).prefix(prefix.value()).name("bench").poolSize(10).open();
    Locks locks = tenure.locks();
    Locker shared =
        new Locker() {
          @Override
          public Object tryAcquire(String name) {
            Optional<HeldLock> held = locks.tryAcquire(name, TTL);
            return held.orElse(null);
          }

          @Override
          public void release(Object held) {
            ((HeldLock) held).close();
          }
        };
    return new LockSystem(
        "Tenure",
        storeName(url),
        () -> shared,
        () -> {
          tenure.close();
          cleanUp(url, prefix);
        });
  }
}
