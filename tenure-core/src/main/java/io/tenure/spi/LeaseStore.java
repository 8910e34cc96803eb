package io.tenure.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The leader lease and its fencing epoch (SPEC §4). One lease per table prefix. Expiry is always
 * decided by the database clock inside the statement.
 */
public interface LeaseStore {
  /**
   * Takes the lease in one conditional write: succeeds when it was never held, has expired, or is
   * already held by {@code nodeId}. The epoch is kept when the holder is unchanged and incremented
   * when it changes (so the first acquire gives 1). Sets {@code expires_at = now() + ttl}.
   *
   * @return the lease if {@code nodeId} holds it after the call; empty if another node holds a live
   *     lease (a lost race is a result, never an exception)
   */
  Optional<Lease> acquire(String nodeId, Duration ttl);

  /**
   * Extends the lease to {@code now() + ttl}, conditional on holder and epoch.
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
   * Takes over a live lease from a holder known to be gone (PostgreSQL: its session lock was
   * released with its connection). Conditional on the observed holder and epoch; bumps the epoch.
   *
   * @return the new lease; empty if the lease changed since it was observed
   */
  Optional<Lease> takeOver(String nodeId, String observedHolder, long observedEpoch, Duration ttl);

  /**
   * @return the lease row as it is now (epoch 0 and no holder if never acquired)
   */
  Lease read();

  /**
   * @return true if {@code fence} is the current, unexpired lease; the same check every fenced write
   *     carries in its SQL
   */
  boolean isCurrent(LeaderFence fence);

  /**
   * A crash detector tied to the holder's database session, where the database has one.
   *
   * @return the detector (PostgreSQL: a session advisory lock on a dedicated connection), or empty
   */
  Optional<SessionLock> sessionLock();

  /**
   * A lock held by a database session and released by the database when that session ends,
   * including when its process crashes. One per node; not thread-safe.
   */
  interface SessionLock extends AutoCloseable {
    /**
     * @return true if this node holds the lock after the call (taken now or already held); false if
     *     another session holds it
     */
    boolean tryHold();

    /** Releases the lock if held; keeps the connection for later calls. */
    void release();

    /** Releases the lock and closes the connection. Idempotent. */
    @Override
    void close();
  }
}
