package io.tenure.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The leader lease and its fencing epoch (SPEC §4). One lease per table prefix. Expiry is always
 * decided by the database clock inside the statement.
 *
 * <p>Every method that takes a {@code ttl} MUST refuse a zero or negative one, and one longer than
 * {@link io.tenure.Limits#MAX_DURATION}, with an {@link IllegalArgumentException} naming it, before
 * it changes anything: a lease born expired would bump the epoch for a holder that can never act,
 * and one beyond the bound overflows on its way to the database clock. Every TTL up to the bound
 * MUST work.
 */
public interface LeaseStore {
  /**
   * The check every implementation runs first on a {@code ttl}.
   *
   * @return {@code ttl}
   * @throws IllegalArgumentException if it is null, zero, negative or longer than {@link
   *     io.tenure.Limits#MAX_DURATION}
   */
  static Duration checkTtl(Duration ttl) {
    return io.tenure.Limits.checkPositive("a lease TTL", ttl, io.tenure.Limits.MAX_DURATION);
  }

  /**
   * Takes the lease in one conditional write: succeeds when it was never held, has expired, or is
   * already held by {@code nodeId}. The epoch is kept when the holder is unchanged and incremented
   * when it changes (so the first acquire gives 1). Sets {@code expires_at = now() + ttl}.
   *
   * <p>MUST clear the session-lock record ({@link Lease#sessionLocked()} false afterwards), also
   * when {@code nodeId} already held the lease: a holder that acquires again has not yet shown that
   * it holds the session lock.
   *
   * @return the lease if {@code nodeId} holds it after the call; empty if another node holds a live
   *     lease (a lost race is a result, never an exception)
   */
  Optional<Lease> acquire(String nodeId, Duration ttl);

  /**
   * Extends the lease to {@code now() + ttl}, conditional on holder and epoch. MUST NOT change the
   * session-lock record.
   *
   * @return the renewed lease; empty if the holder or epoch changed (the caller is superseded)
   */
  Optional<Lease> renew(String nodeId, long epoch, Duration ttl);

  /**
   * Steps down: sets {@code expires_at = now()} if {@code nodeId} still holds a live lease at
   * {@code epoch}. The epoch is unchanged, so a successor can acquire at once with epoch + 1.
   *
   * @return true if this call released it
   */
  boolean release(String nodeId, long epoch);

  /**
   * Records that {@code nodeId}, holding the live lease at {@code epoch}, holds the session lock.
   * From then until the epoch changes, a candidate that finds the lock free may take the lease
   * over. MUST change nothing and return false unless {@code nodeId} holds the live lease at {@code
   * epoch}. Recording twice is harmless.
   *
   * @return true if the record is in place after the call
   */
  boolean recordSessionLock(String nodeId, long epoch);

  /**
   * Takes over the lease from a holder known to be gone (PostgreSQL: its session lock was free for
   * longer than a live holder takes to notice). Conditional on the observed holder and epoch, and
   * on that holder having recorded the session lock at that epoch ({@link #recordSessionLock}):
   * MUST change nothing otherwise, because a free lock says nothing about a holder that never took
   * it. Bumps the epoch and clears the record.
   *
   * @return the new lease; empty if the lease changed since it was observed or its holder had not
   *     recorded the session lock
   */
  Optional<Lease> takeOver(String nodeId, String observedHolder, long observedEpoch, Duration ttl);

  /**
   * @return the lease row as it is now (epoch 0 and no holder if never acquired)
   */
  Lease read();

  /**
   * @return true if {@code fence} is the current, unexpired lease; the same check every fenced
   *     write carries in its SQL
   */
  boolean isCurrent(LeaderFence fence);

  /**
   * A crash detector tied to the holder's database session, where the database has one.
   *
   * @return a new detector (PostgreSQL: a session advisory lock on a dedicated connection), or
   *     empty; each call returns a lock of its own
   */
  Optional<SessionLock> sessionLock();

  /**
   * A lock held by a database session and released by the database when that session ends,
   * including when its process crashes. One per node, used from one thread.
   */
  interface SessionLock extends AutoCloseable {
    /** What {@link #hold()} found. */
    enum Hold {
      /**
       * Held without a break since the previous call that returned {@code KEPT} or {@code TAKEN}:
       * the same session is still alive, so nobody else can have held the lock in between.
       */
      KEPT,
      /** Taken by this call: not held before, or its session was lost and the lock taken again. */
      TAKEN,
      /** Another session holds it. */
      REFUSED,
      /** The database could not be reached; not held. */
      UNAVAILABLE
    }

    /**
     * Takes the lock if it is not held, and checks that the session holding it is still alive if it
     * is. MUST answer {@link Hold#KEPT} only when the lock was held without a break since the
     * previous call that held it. Never throws for a database failure: that is {@link
     * Hold#UNAVAILABLE}.
     *
     * @return what it found
     */
    Hold hold();

    /** Releases the lock if held; keeps the connection for later calls. */
    void release();

    /** Releases the lock and closes the connection. Idempotent. */
    @Override
    void close();
  }
}
