package io.tenure.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * The leader lease and its fencing epoch (SPEC §4). One lease row per table prefix; its holder owns
 * it until it expires by the database clock, and only the holder at the current epoch may renew,
 * release or record on it.
 *
 * <p>Rules for every method, each checked by the compliance kit on every provider ({@code
 * LeadershipComplianceTest}; the test named in a rule checks it):
 *
 * <ol>
 *   <li><b>L1</b> Expiry MUST be decided by the database clock inside the statement that depends on
 *       it, never by the caller's clock ({@code
 *       the_first_acquire_gives_epoch_1_expiring_ttl_after_the_database_clock}, {@code
 *       a_standby_acquires_after_expiry_with_the_epoch_plus_one}).
 *   <li><b>L2</b> Every method that takes a {@code ttl} MUST refuse a zero or negative one, and one
 *       longer than {@link io.tenure.Limits#MAX_DURATION}, with an {@link IllegalArgumentException}
 *       naming it, before it changes anything: a lease born expired would bump the epoch for a
 *       holder that can never act, and one beyond the bound overflows on its way to the database
 *       clock. Every TTL up to the bound MUST work ({@code
 *       a_zero_negative_or_too_long_ttl_is_refused_by_name_and_changes_nothing}, {@code
 *       the_longest_ttl_allowed_works_for_every_lease_write_on_the_database_clock}).
 *   <li><b>L3</b> A lost race MUST be a result (empty, {@code false}), never an exception, and MUST
 *       change nothing ({@code a_standby_cannot_acquire_a_live_lease}, {@code
 *       of_eight_candidates_racing_for_an_expired_lease_exactly_one_wins}).
 * </ol>
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
   * Takes the lease in one conditional write.
   *
   * <ol>
   *   <li><b>L4</b> MUST succeed only when the lease was never held, has expired, or is already
   *       held by {@code nodeId}; of any number of concurrent candidates for a free lease, exactly
   *       one wins ({@code a_standby_cannot_acquire_a_live_lease}, {@code
   *       of_eight_candidates_racing_for_an_expired_lease_exactly_one_wins}).
   *   <li><b>L5</b> MUST keep the epoch when the holder is unchanged and add 1 when it changes (the
   *       first acquire gives 1), and set {@code expires_at = now() + ttl} ({@code
   *       the_first_acquire_gives_epoch_1_expiring_ttl_after_the_database_clock}, {@code
   *       the_holder_acquiring_again_keeps_its_epoch}, {@code
   *       a_standby_acquires_after_expiry_with_the_epoch_plus_one}).
   *   <li><b>L6</b> MUST clear the session-lock record ({@link Lease#sessionLocked()} false
   *       afterwards), also when {@code nodeId} already held the lease: a holder that acquires
   *       again has not yet shown that it holds the session lock ({@code
   *       acquiring_clears_the_session_lock_record_also_for_the_holder_acquiring_again}).
   * </ol>
   *
   * @return the lease if {@code nodeId} holds it after the call; empty if another node holds a live
   *     lease (a lost race is a result, never an exception)
   */
  Optional<Lease> acquire(String nodeId, Duration ttl);

  /**
   * <b>L7</b> MUST extend the lease to {@code now() + ttl} only if {@code nodeId} holds it at
   * {@code epoch}, keeping the epoch and the acquisition time, and MUST change nothing otherwise;
   * MUST NOT change the session-lock record ({@code renew_extends_the_lease_and_keeps_the_epoch},
   * {@code renew_by_a_superseded_holder_fails_and_changes_nothing}, {@code
   * only_the_live_holder_at_its_epoch_records_the_session_lock_and_renewals_keep_the_record}).
   *
   * @return the renewed lease; empty if the holder or epoch changed (the caller is superseded)
   */
  Optional<Lease> renew(String nodeId, long epoch, Duration ttl);

  /**
   * Steps down. <b>L8</b> MUST set {@code expires_at = now()} only if {@code nodeId} still holds a
   * live lease at {@code epoch}, and MUST keep the epoch, so a successor acquires at once with
   * epoch + 1; a release by another node, at another epoch, or of a lease already released MUST
   * change nothing ({@code a_clean_release_lets_a_standby_acquire_at_once}, {@code
   * release_by_a_node_that_does_not_hold_the_lease_changes_nothing}).
   *
   * @return true if this call released it
   */
  boolean release(String nodeId, long epoch);

  /**
   * Records that {@code nodeId}, holding the live lease at {@code epoch}, holds the session lock.
   * From then until the epoch changes, a candidate that finds the lock free may take the lease
   * over. <b>L9</b> MUST change nothing and return false unless {@code nodeId} holds the live lease
   * at {@code epoch}; recording twice MUST be harmless ({@code
   * only_the_live_holder_at_its_epoch_records_the_session_lock_and_renewals_keep_the_record}).
   *
   * @return true if the record is in place after the call
   */
  boolean recordSessionLock(String nodeId, long epoch);

  /**
   * Takes over the lease from a holder known to be gone (its session lock was free for longer than
   * a live holder takes to notice). <b>L10</b> MUST succeed only on the observed holder and epoch,
   * and only if that holder recorded the session lock at that epoch ({@link #recordSessionLock}),
   * and MUST change nothing otherwise, because a free lock says nothing about a holder that never
   * took it; on success MUST add 1 to the epoch and clear the record ({@code
   * a_take_over_succeeds_only_on_the_holder_and_epoch_observed}, {@code
   * a_take_over_of_a_holder_that_never_recorded_the_session_lock_changes_nothing}).
   *
   * @return the new lease; empty if the lease changed since it was observed or its holder had not
   *     recorded the session lock
   */
  Optional<Lease> takeOver(String nodeId, String observedHolder, long observedEpoch, Duration ttl);

  /**
   * <b>L11</b> A read: MUST change nothing; a lease never acquired reads as epoch 0 with no holder
   * ({@code a_lease_never_acquired_has_epoch_0_and_no_holder}).
   *
   * @return the lease row as it is now (epoch 0 and no holder if never acquired)
   */
  Lease read();

  /**
   * <b>L12</b> MUST answer true only for the holder of the unexpired lease at its current epoch:
   * the same check every fenced write carries in its SQL ({@code
   * a_fence_is_current_only_for_the_live_holder_at_its_epoch}).
   *
   * @return true if {@code fence} is the current, unexpired lease
   */
  boolean isCurrent(LeaderFence fence);

  /**
   * A crash detector tied to the holder's database session or process, where the database has one.
   * <b>L13</b> A store whose database frees a lock when its holder's session or process ends MUST
   * return one: PostgreSQL, MariaDB/MySQL and SQLite on a file (a store without such a lock returns
   * empty, and its fail-over waits for the lease TTL). Each call MUST return a lock of its own, so
   * two nodes in one process compete as two processes would. Asking for one MUST create and change
   * nothing: whatever the lock needs is made by its first {@link SessionLock#hold()} ({@code
   * a_session_lock_is_held_by_one_session_at_a_time_and_passes_on_when_released}; SQLite's file:
   * {@code SqliteFileLockTest}).
   *
   * @return a new detector (PostgreSQL: a session advisory lock, MariaDB/MySQL: a {@code GET_LOCK}
   *     named lock, each on a dedicated connection; SQLite: an OS lock on a file beside the
   *     database), or empty; each call returns a lock of its own
   */
  Optional<SessionLock> sessionLock();

  /**
   * A lock held by a database session (or, for SQLite, by the process) and released by the database
   * or the operating system when that session or process ends, including when the process crashes.
   * One per node, used from one thread.
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
     * is. <b>L14</b> MUST answer {@link Hold#TAKEN} when this call took it, {@link Hold#KEPT} only
     * when the lock was held without a break since the previous call that held it, and {@link
     * Hold#REFUSED} while another session holds it ({@code
     * a_session_lock_is_held_by_one_session_at_a_time_and_passes_on_when_released}; a session
     * killed under the lock: {@code PostgresSessionLockTakeOverTest}, {@code
     * MariaDbSessionLockTakeOverTest}; a process killed under it, and a lock file replaced under
     * it: {@code SqliteFileLockTest}). MUST NOT throw for a database failure: that is {@link
     * Hold#UNAVAILABLE}.
     *
     * @return what it found
     */
    Hold hold();

    /**
     * <b>L15</b> MUST release the lock if held, so another session can take it, and keep the
     * connection for later calls ({@code
     * a_session_lock_is_held_by_one_session_at_a_time_and_passes_on_when_released}).
     */
    void release();

    /**
     * Releases the lock and closes the connection. <b>L16</b> MUST be idempotent ({@code
     * a_session_lock_is_held_by_one_session_at_a_time_and_passes_on_when_released}).
     */
    @Override
    void close();
  }
}
