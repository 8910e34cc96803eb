package io.tenure.spi;

import io.tenure.LockInfo;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Named locks with fencing tokens (SPEC §11): one row per lock name, held by at most one owner at a
 * time until its expiry by the database clock. An owner is one acquisition (a fresh id each time),
 * so a release or a renewal can only ever touch the acquisition that made it.
 *
 * <p>Rules for every method, each checked by {@code io.tenure.tck.LocksComplianceTest} on every
 * provider (the test named in a rule checks it):
 *
 * <ol>
 *   <li><b>K1</b> Expiry MUST be judged by the database clock, in the statement that changes the
 *       row: a grant holds its lock while the row has its owner and token and {@code expires_at >
 *       now()}, and nobody may acquire it before {@code expires_at} ({@code
 *       an_expired_lock_is_taken_over_with_a_higher_token}).
 *   <li><b>K2</b> A lost race MUST be a result (empty, {@code false}), never an exception, and MUST
 *       NOT change the winner's row ({@code eight_acquirers_race_and_exactly_one_holds}).
 *   <li><b>K3</b> A missing table MUST be a {@link io.tenure.SchemaMissingException}, and a closed
 *       store or an unreachable database a {@link io.tenure.StoreUnavailableException} ({@code
 *       a_closed_store_refuses_lock_calls_as_unavailable}).
 * </ol>
 */
public interface LockStore {
  /**
   * Takes the lock when nobody holds it.
   *
   * <ol>
   *   <li><b>K4</b> MUST succeed only when no row exists for {@code name} (token 1) or the row's
   *       {@code expires_at} is not after {@code now()} (it expired, or a release set it to now or
   *       to its keep-for time, which has passed); MUST otherwise return empty and change nothing,
   *       whoever asks ({@code one_holder_at_a_time_and_a_second_acquire_is_refused}).
   *   <li><b>K5</b> Every successful acquire MUST set a token strictly greater than every token the
   *       name had before, even after a release by the same holder ({@code
   *       the_token_increases_on_every_acquisition}).
   *   <li><b>K6</b> MUST set {@code acquired_at = now()} and {@code expires_at = now() + ttl}
   *       ({@code an_acquisition_expires_a_ttl_after_the_database_clock}).
   * </ol>
   *
   * @param name the lock's name, checked by {@link io.tenure.LockInfo#checkName}
   * @param owner this acquisition's id, unique per call
   * @param holder who holds it, for operators (a node or process name)
   * @param ttl how long the lock is held without a renewal
   * @return the grant, or empty when another owner holds the lock
   * @throws IllegalArgumentException if the name, owner, holder or ttl is out of range, before
   *     anything is written
   */
  Optional<LockGrant> acquire(String name, String owner, String holder, Duration ttl);

  /**
   * <b>K7</b> Moves a held lock's expiry to {@code now() + ttl}, only while {@code grant} still
   * holds it: same owner and token, not expired, not released. Otherwise MUST change nothing and
   * return false ({@code renewing_moves_the_expiry_and_a_lost_lock_is_not_renewed}).
   *
   * @return whether the grant still held the lock and was renewed
   * @throws IllegalArgumentException if ttl is out of range
   */
  boolean renew(LockGrant grant, Duration ttl);

  /**
   * <b>K8</b> Gives a held lock up. Only the grant's own owner and token may (a release by anyone
   * else MUST change nothing and return false): the owner is cleared and {@code expires_at} becomes
   * the later of now and {@code acquired_at + keepFor}, so nobody takes it before {@code keepFor}
   * has passed since it was acquired ({@code a_release_by_a_non_holder_changes_nothing}, {@code
   * a_release_keeps_the_lock_until_keep_for_has_passed_since_it_was_acquired}).
   *
   * @param keepFor the least time the lock stays unavailable after it was acquired ({@code
   *     lockAtLeastFor}); zero frees it now
   * @return whether the grant held the lock and released it
   */
  boolean release(LockGrant grant, Duration keepFor);

  /**
   * <b>K9</b> A read: whether {@code grant} holds the lock now by the database clock. MUST NOT
   * change anything ({@code a_stale_holders_fence_check_is_refused}).
   */
  boolean holds(LockGrant grant);

  /**
   * <b>K10</b> The fence for the caller's own write: inside the caller's open transaction on {@code
   * transaction}, whether {@code grant} holds the lock, and if so the lock row is locked against a
   * take-over until that transaction ends, so a write the caller makes in it can only commit while
   * the grant holds ({@code a_stale_holders_fenced_write_is_refused}, {@code
   * a_take_over_waits_for_a_fenced_write_in_progress}). MUST NOT commit, roll back or close the
   * connection.
   *
   * @throws UnsupportedOperationException if the store has no JDBC transactions (in-memory)
   */
  boolean holds(Connection transaction, LockGrant grant);

  /**
   * <b>K11</b> A read of one lock as stored, with the database's now; MUST NOT create or change
   * anything ({@code listing_shows_holder_token_and_expiry_and_changes_nothing}).
   */
  Optional<LockInfo> read(String name);

  /**
   * <b>K11</b> Every lock as stored, by name, with the database's now; at most {@code limit}.
   *
   * @throws IllegalArgumentException if limit is not 1 to 10,000
   */
  List<LockInfo> list(int limit);
}
