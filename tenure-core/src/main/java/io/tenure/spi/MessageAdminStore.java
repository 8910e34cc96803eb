package io.tenure.spi;

import io.tenure.DeleteOutcome;
import io.tenure.RetryOutcome;
import io.tenure.RunNowOutcome;

/**
 * An operator's actions on one message (SPEC §12.7), beside {@link QueueStore#cancel}: delete it,
 * run it now, retry it. Each acts in one statement or transaction conditional on the message's
 * status, never on a status read before, so none of them can undo or lose a claim that commits at
 * the same moment; a refused action is a result, never an exception, and changes nothing. They are
 * rules of {@link QueueStore}, numbered with its own, and {@code
 * io.tenure.tck.QueueMessageAdminComplianceTest} checks each on every provider (the test named in a
 * rule checks it).
 */
public interface MessageAdminStore {
  /**
   * Deletes one message that is not in flight.
   *
   * <ol>
   *   <li><b>Q33a</b> A {@code PENDING}, {@code DONE}, {@code DEAD} or {@code CANCELLED} message
   *       MUST be deleted, and with it its dedupe key: the next enqueue with the key inserts a new
   *       message ({@code a_message_that_is_not_in_flight_is_deleted_whatever_its_status}, {@code
   *       a_deleted_message_frees_its_dedupe_key_and_unblocks_its_key}).
   *   <li><b>Q33b</b> An {@code INFLIGHT} message MUST be left as it is, its claim holding ({@link
   *       DeleteOutcome#IN_FLIGHT}: the operator cancels it first), and a missing one reported as
   *       such ({@code a_message_in_flight_is_not_deleted_and_its_claim_still_holds}, {@code
   *       deleting_an_unknown_message_changes_nothing}).
   *   <li><b>Q33c</b> The delete MUST be one statement conditional on the status, so that a delete
   *       racing a claim leaves the message either deleted and never claimed, or claimed and in
   *       flight: never a claimed message deleted under its claimer ({@code
   *       a_delete_racing_a_claim_leaves_each_message_deleted_or_in_flight_never_both}).
   * </ol>
   *
   * @return what it did
   */
  DeleteOutcome delete(long id);

  /**
   * Makes one pending message available now.
   *
   * <ol>
   *   <li><b>Q34a</b> A {@code PENDING} message whose {@code available_at} is after the database's
   *       now (delayed, or waiting for a retry) MUST become available now by the database clock,
   *       with nothing else changed: attempts, last error, priority, key, group ({@code
   *       a_delayed_message_run_now_is_claimed_at_once_with_nothing_else_changed}, {@code
   *       a_message_waiting_for_a_retry_run_now_keeps_its_attempts_and_its_error}).
   *   <li><b>Q34b</b> A pending message already available, a message of any other status and a
   *       missing one MUST be left as they are, conditional on the status in the same statement
   *       ({@code running_now_a_message_that_is_not_waiting_changes_nothing}).
   * </ol>
   *
   * @return what it did
   */
  RunNowOutcome runNow(long id);

  /**
   * Retries one dead or cancelled message.
   *
   * <ol>
   *   <li><b>Q35a</b> A {@code DEAD} or {@code CANCELLED} message MUST become {@code PENDING},
   *       available now, unclaimed, with no finish time and attempts reset to 0, its last error,
   *       progress and checkpoint kept, as {@link QueueStore#replay(long)} does a dead letter
   *       ({@code
   *       a_dead_or_cancelled_message_retried_is_pending_now_with_no_attempts_and_its_error}).
   *   <li><b>Q35b</b> A message of any other status and a missing one MUST be left as they are
   *       ({@code retrying_a_message_that_is_not_dead_or_cancelled_changes_nothing}).
   *   <li><b>Q35c</b> A retried message keeps its id, so Q12 holds for it as for a replayed dead
   *       letter: it waits while its key has a message in flight and then runs before the key's
   *       younger messages; where claims and retries run side by side the store MUST order a retry
   *       against the claims of its key as {@link QueueStore#replay(long)} does ({@code
   *       a_retried_message_waits_for_its_keys_message_in_flight_then_runs_first}).
   *   <li><b>Q35d</b> A retry MUST NOT write the dedupe key. A message that still holds its key
   *       holds it again while pending (an enqueue with the key returns its id, Q6a); one whose key
   *       a newer message took once its window had passed holds none, and the newer one keeps it. A
   *       retry racing an enqueue that takes the key MUST leave one holder, never an error ({@code
   *       a_retried_message_holds_its_dedupe_key_again_and_one_whose_key_was_taken_holds_none},
   *       {@code a_retry_racing_an_enqueue_for_its_passed_key_leaves_one_holder_of_the_key}).
   * </ol>
   *
   * @return what it did
   */
  RetryOutcome retry(long id);
}
