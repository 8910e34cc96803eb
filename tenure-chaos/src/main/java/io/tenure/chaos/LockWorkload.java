package io.tenure.chaos;

import io.tenure.HeldLock;
import io.tenure.Locks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named-lock half of a node's workload (SPEC §11): for each of {@link #LOCKS}, one thread that
 * tries to take the lock with a short TTL, and while it holds it makes a run of fenced writes
 * ({@link LockWrites}) a {@link #EVERY} apart, stopping at the first the fence refuses; then it
 * releases the lock and soon tries again. So the locks change hands between nodes all through the
 * run, and a holder that was frozen, cut off or slowed past its TTL resumes with a superseded
 * token.
 */
final class LockWorkload implements AutoCloseable {
  /** The locks every node takes in turn. */
  static final List<String> LOCKS = List.of("chaos-lock-1", "chaos-lock-2");

  /** A lock's TTL: short, so a frozen holder loses it well within a pause. */
  static final Duration TTL = Duration.ofSeconds(2);

  /** The pause between two writes of a holder, and between two tries to take a lock. */
  static final Duration EVERY = ChaosWorkload.TICK;

  /** The most writes one acquisition makes before it releases the lock. */
  static final int MOST_WRITES = 20;

  private static final Logger LOG = LoggerFactory.getLogger(LockWorkload.class);

  private final List<Thread> threads = new ArrayList<>();

  private LockWorkload() {}

  /**
   * Starts one thread per lock.
   *
   * @param work how long each fenced write works before it commits
   */
  static LockWorkload start(Locks locks, History history, String node, Duration work) {
    LockWorkload workload = new LockWorkload();
    for (String name : LOCKS) {
      workload.threads.add(
          Thread.ofPlatform()
              .daemon()
              .name("chaos-" + name)
              .start(() -> takeInTurn(locks, name, new LockWrites(history, node, work))));
    }
    return workload;
  }

  private static void takeInTurn(Locks locks, String name, LockWrites writes) {
    long sequence = 0;
    try (writes) {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Optional<HeldLock> held = locks.tryAcquire(name, TTL);
          if (held.isPresent()) {
            try (HeldLock lock = held.get()) {
              int count = 1 + ThreadLocalRandom.current().nextInt(MOST_WRITES);
              for (int i = 0; i < count && writes.write(lock, ++sequence); i++) {
                Thread.sleep(EVERY);
              }
            }
          }
          // Another node's turn, maybe: every node polls at this pace.
          Thread.sleep(EVERY.toMillis() + ThreadLocalRandom.current().nextLong(EVERY.toMillis()));
        } catch (RuntimeException e) {
          LOG.warn("lock {}: {}", name, e.toString());
          Thread.sleep(EVERY);
        }
      }
    } catch (InterruptedException e) {
      // the node is leaving: the lock was released on the way out
    }
  }

  /** Stops the threads; each releases the lock it holds. */
  @Override
  public void close() {
    threads.forEach(Thread::interrupt);
    for (Thread thread : threads) {
      try {
        thread.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
