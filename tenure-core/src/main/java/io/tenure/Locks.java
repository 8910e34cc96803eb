package io.tenure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Named locks with fencing tokens (SPEC §11), for "run this on one node at a time" without a
 * leader: from {@link Tenure#locks()}.
 *
 * <pre>{@code
 * Locks locks = tenure.locks();
 * // ShedLock's use: run the nightly report on one node; skip it where another node runs it.
 * boolean ran = locks.runExclusively("nightly-report", Duration.ofMinutes(10), Duration.ofMinutes(1),
 *     lock -> report.run(lock.token()));
 * }</pre>
 *
 * A held lock is renewed in the background (every third of its TTL) until it is closed, so a body
 * may run longer than the TTL; if its process dies, the lock lapses one TTL after the last renewal.
 * A lock that is lost (taken over after an expiry, a renewal refused, no renewal within its TTL) is
 * reported: {@link HeldLock#stillHeld()} turns false and {@link HeldLock#onLost} listeners run,
 * never silently. Every acquisition carries a token greater than every earlier one of its name;
 * pass it to your own writes, or fence them with {@link HeldLock#fence}. Thread-safe.
 */
public interface Locks {
  /**
   * Tries once to take {@code name}, without waiting.
   *
   * @param name the lock's name: 1 to 128 characters, no control characters
   * @param ttl how long the lock lasts without a renewal (its holder renews it while it is held):
   *     positive, at most 365 days
   * @return the lock, held until closed or lost; empty when another holder has it
   * @throws IllegalArgumentException if the name or TTL is invalid, naming it (nothing written)
   * @throws StoreUnavailableException if the database cannot be reached
   */
  Optional<HeldLock> tryAcquire(String name, Duration ttl);

  /**
   * Runs {@code body} if {@code name} is free, holding the lock while it runs, as ShedLock's
   * {@code @SchedulerLock} does: when the lock is held elsewhere, returns false at once without
   * running it. After the body (also when it throws) the lock is released but stays unavailable
   * until {@code atLeastFor} has passed since it was taken, so nodes whose clocks differ a little
   * do not run the same periodic task twice.
   *
   * @param atMostFor the lock's TTL ({@code lockAtMostFor}): how long it survives a process that
   *     dies holding it. The lock is renewed while the body runs, so a longer body keeps it
   * @param atLeastFor {@code lockAtLeastFor}: zero to {@code atMostFor}
   * @param body the work, given the held lock for its token and fence
   * @return whether the body ran
   * @throws IllegalArgumentException if an argument is invalid (nothing written)
   * @throws Exception what the body threw, after the lock was released
   */
  boolean runExclusively(String name, Duration atMostFor, Duration atLeastFor, FencedTask body)
      throws Exception;

  /**
   * {@link #runExclusively(String, Duration, Duration, FencedTask)} with no {@code atLeastFor}: the
   * lock is free as soon as the body returns.
   *
   * @throws Exception what the body threw, after the lock was released
   */
  boolean runExclusively(String name, Duration ttl, FencedTask body) throws Exception;

  /**
   * @return every lock of the store, by name, as stored (at most 10,000)
   */
  List<LockInfo> list();

  /**
   * @return the lock as stored, if it was ever taken
   * @throws IllegalArgumentException if the name is invalid
   */
  Optional<LockInfo> find(String name);

  /** Work that runs while a lock is held. */
  @FunctionalInterface
  interface FencedTask {
    /**
     * @param lock the held lock: its token for your writes, {@link HeldLock#stillHeld()} to check
     *     between steps
     * @throws Exception anything; the lock is released first, then it reaches the caller
     */
    void run(HeldLock lock) throws Exception;
  }
}
