package io.tenure.spi;

import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Durable queue messages (SPEC §6): who may change a message row, and how. A node owns the rows it
 * claimed (owner, claim token, {@code INFLIGHT}) until it resolves them or their lease expires;
 * nobody else may finish them, and the reclaim sweep alone takes back an expired one.
 *
 * <p>Rules for every method, each checked by the compliance kit on every provider (the {@code
 * Queue*ComplianceTest} classes of {@code io.tenure.tck}, one per area; the test named in a rule
 * checks it):
 *
 * <ol>
 *   <li><b>Q1</b> Every claim, resolve, extend and reclaim MUST be conditional on the row's state
 *       in the same statement or transaction. A lost race MUST be a result (an empty list, {@code
 *       false}, a lost id, a count of 0), never an exception, and MUST NOT overwrite the winner's
 *       row ({@code a_resolve_whose_claim_was_lost_changes_nothing_and_reports_the_id}).
 *   <li><b>Q2</b> Times (available, lease, finished, created) MUST come from the database clock,
 *       and every duration up to {@link io.tenure.Limits#MAX_DURATION} MUST work ({@code
 *       a_claim_with_the_longest_lease_allowed_holds_extends_and_snoozes_on_the_database_clock},
 *       {@code a_message_delayed_or_retried_by_the_longest_time_allowed_waits_that_long}).
 *   <li><b>Q3</b> A missing table MUST be a {@link io.tenure.SchemaMissingException}, and a closed
 *       store or an unreachable database a {@link io.tenure.StoreUnavailableException} ({@code
 *       SchemaComplianceTest}, {@code
 *       a_closed_store_refuses_queue_calls_as_unavailable_and_a_dropped_table_as_missing}).
 * </ol>
 */
public interface QueueStore {
  /** Most messages in one enqueue, claim, resolve or admin batch. */
  int MAX_BATCH = 1000;

  /**
   * Inserts the messages in one transaction of their own.
   *
   * <ol>
   *   <li><b>Q4</b> MUST insert all of the batch or none of it, in list order: ids grow in that
   *       order ({@code a_batch_enqueue_returns_increasing_ids_in_list_order}).
   *   <li><b>Q5</b> MUST store every field as given, to the byte and the character, with {@code
   *       available_at = now() + delay} ({@code every_field_of_a_message_round_trips_exactly},
   *       {@code
   *       supplementary_characters_round_trip_exactly_and_keys_that_differ_in_one_stay_distinct}).
   *   <li><b>Q6</b> A dedupe key already stored in the same queue, whatever its message's status,
   *       MUST NOT insert a row and MUST return the stored message's id with {@code created =
   *       false}; the same key in another queue is another message ({@code
   *       a_repeated_dedupe_key_returns_the_first_id_and_stores_one_row}, {@code
   *       a_dedupe_key_holds_whatever_the_status_until_its_message_is_deleted}, {@code
   *       the_same_dedupe_key_in_another_queue_is_another_message}).
   *   <li><b>Q6a</b> Q6 holds while the stored message's {@link io.tenure.DedupeWindow} does: until
   *       it is deleted; while it is pending or in flight; or until its window has passed since it
   *       finished (done, dead or cancelled), by the database clock. Once the window has passed, an
   *       enqueue with the key MUST insert a new message and the old one MUST keep no dedupe key;
   *       the window judged is always the stored message's, never the new one's ({@code
   *       QueueUniqueComplianceTest}).
   *   <li><b>Q6b</b> Enqueues racing for a key whose window passed MUST insert exactly one message
   *       between them, the others returning its id; an enqueue rolled back (an outbox) MUST leave
   *       the old message holding its key ({@code
   *       eight_enqueuers_racing_for_a_passed_key_insert_one_message}, {@code
   *       a_rolled_back_outbox_enqueue_leaves_the_key_with_its_old_message}).
   *   <li><b>Q7</b> An empty batch, or one larger than {@link #MAX_BATCH}, MUST be refused before
   *       anything is written ({@code
   *       an_empty_or_oversized_enqueue_is_refused_and_writes_nothing}).
   *   <li><b>Q8</b> A message the database refuses for its size (MariaDB's {@code
   *       max_allowed_packet}) MUST be reported as an {@link IllegalArgumentException} naming the
   *       database's limit, never as an unavailable store, and MUST leave none of the batch
   *       written. Only MariaDB has such a limit below Tenure's own, so its test is MariaDB's:
   *       {@code MariaDbPacketLimitTest}.
   * </ol>
   *
   * @return one result per message, in order
   * @throws IllegalArgumentException if empty or larger than {@link #MAX_BATCH}, or a message is
   *     larger than the database accepts in one statement (nothing written)
   */
  List<EnqueueResult> enqueue(List<NewMessage> messages);

  /**
   * Inserts the messages inside the caller's open transaction (transactional outbox). The
   * connection must be on this store's database.
   *
   * <ol>
   *   <li><b>Q9</b> The messages MUST exist only if the caller commits; the store MUST NOT commit,
   *       roll back or close the connection. A store without JDBC transactions (in-memory) MUST
   *       refuse the call and write nothing ({@code
   *       an_outbox_enqueue_follows_the_callers_transaction_and_a_store_without_transactions_refuses_it}).
   *   <li>Q4 to Q8 hold as for {@link #enqueue(List)}.
   * </ol>
   *
   * @throws UnsupportedOperationException if the store has no JDBC transactions (in-memory)
   * @throws IllegalArgumentException as {@link #enqueue(List)}; a database that ends the session on
   *     such a statement (MariaDB) has then rolled back the caller's whole transaction
   */
  List<EnqueueResult> enqueue(java.sql.Connection transaction, List<NewMessage> messages);

  /**
   * Claims up to {@code request.max()} available messages of one queue.
   *
   * <ol>
   *   <li><b>Q10</b> Each claimed message MUST become {@code INFLIGHT} with the claimer as owner, a
   *       fresh claim token, {@code lease_until = now() + lease} and {@code attempts + 1}, and be
   *       returned as stored after the claim ({@code
   *       a_claim_takes_the_message_in_flight_for_its_owner_with_a_token_one_attempt_and_a_lease_from_now}).
   *   <li><b>Q11</b> MUST take only {@code PENDING} messages whose {@code available_at} has come,
   *       highest priority first, then oldest, however many wait behind them ({@code
   *       a_delayed_message_is_not_claimed_before_its_time_and_one_without_delay_is}, {@code
   *       a_higher_priority_is_claimed_first_then_the_oldest}, {@code
   *       an_available_message_behind_a_deep_backlog_of_delayed_ones_is_claimed}).
   *   <li><b>Q12</b> Messages with one key are one sequence: MUST NOT take a message whose key has
   *       an older unfinished message ({@code PENDING} or {@code INFLIGHT}), or any {@code
   *       INFLIGHT} message whatever its id (a replayed dead letter keeps its id, so it can be
   *       older than its key's message in flight), and MUST NOT take two of one key at once; a key
   *       behind a busy one MUST still be claimed ({@code
   *       a_key_is_blocked_while_its_head_is_in_flight_and_free_once_it_is_done}, {@code
   *       one_claim_never_takes_two_messages_of_one_key}, {@code
   *       a_key_behind_a_deep_backlog_of_a_busy_key_is_claimed_while_the_busy_head_is_in_flight},
   *       {@code
   *       a_replayed_message_waits_while_its_key_has_a_message_in_flight_then_runs_in_its_old_place}).
   *   <li><b>Q13</b> Concurrent claims MUST NOT take one message twice ({@code
   *       eight_claimers_racing_over_a_backlog_take_each_message_exactly_once}, {@code
   *       eight_claimers_racing_over_one_key_take_only_its_head_between_them}).
   *   <li><b>Q14</b> With a guard, a claim MUST take nothing and change nothing unless the guard
   *       holds (fail-closed); a strict claim MUST take only the queue's oldest unfinished messages
   *       in id order, whatever their priority, and nothing while any message of the queue is in
   *       flight or the oldest waits for a retry ({@code
   *       an_exclusive_claim_with_a_stale_guard_takes_nothing_and_changes_nothing}, {@code
   *       an_exclusive_claim_with_the_current_guard_takes_the_oldest_message_whatever_its_priority},
   *       {@code
   *       an_exclusive_queue_claims_nothing_while_a_message_is_in_flight_even_an_older_replayed_one}).
   *   <li><b>Q14a</b> MUST apply the queue's pause and limits as {@link QueueControlStore} states
   *       (C1 to C5) in the claim's own statement or transaction.
   * </ol>
   *
   * @return the claimed messages as stored after the claim, in claim order; empty if none (or the
   *     guard did not hold)
   */
  List<QueueMessage> claim(ClaimRequest request);

  /**
   * Resolves claimed messages as one batch.
   *
   * <ol>
   *   <li><b>Q15</b> The batch MUST be all or nothing, each resolve conditional on its claim (id,
   *       token and {@code INFLIGHT}): if any claim was lost, nothing of the batch is written and
   *       exactly the lost ids are reported ({@code
   *       a_batch_with_one_lost_claim_changes_nothing_and_reports_exactly_that_id}, {@code
   *       a_batch_of_done_and_released_messages_with_one_lost_claim_changes_nothing}, {@code
   *       a_batch_whose_claims_all_hold_is_applied_entirely}).
   *   <li><b>Q16</b> Each outcome MUST write what it says and nothing else: the consumer decides
   *       retry or dead, and the store applies what it is told. {@code Done} deletes the row, or
   *       keeps it {@code DONE} with its finish time; {@code Retry} re-pends it after its delay
   *       with its error and its attempt kept, whatever its attempts, and MUST NOT make it a dead
   *       letter; {@code DeadLetter} makes it {@code DEAD} at once; {@code Release} gives the
   *       attempt back and keeps {@code available_at}; {@code Reschedule} gives the attempt back
   *       and snoozes from now. A re-pended message has no owner, token or lease ({@code
   *       done_without_keep_deletes_the_message}, {@code
   *       done_with_keep_keeps_it_done_with_its_finish_time_and_it_is_never_claimed_again}, {@code
   *       a_retry_is_pending_later_with_its_error_and_attempts_kept}, {@code
   *       a_retry_on_the_last_attempt_is_applied_as_told_and_a_dead_letter_is_dead}, {@code
   *       a_dead_letter_is_dead_at_once_whatever_attempts_are_left}, {@code
   *       a_release_gives_the_attempt_back_and_keeps_the_available_time}, {@code
   *       a_reschedule_gives_the_attempt_back_and_snoozes_from_now}).
   *   <li><b>Q17</b> With a guard (an exclusive queue, SPEC §6.9), a batch with a finish or a retry
   *       ({@link Resolution.Outcome#terminal()}) MUST read the guard, fail-closed. If it does not
   *       hold, every message whose claim still holds MUST leave the batch {@code PENDING} and
   *       unclaimed, never in flight: a re-pend (release, reschedule, retry) MUST land exactly as
   *       without a guard, its error and backoff included; a finish (done, dead letter) MUST NOT
   *       land, and its message goes back with its attempt given back and {@code available_at} and
   *       {@code last_error} unchanged. See {@link ResolveResult} ({@code
   *       a_retry_under_a_stale_guard_lands_with_its_error_and_backoff}, {@code
   *       a_stale_guard_with_a_lost_claim_in_the_batch_still_puts_the_held_message_back}, {@code
   *       a_non_terminal_resolve_with_a_stale_guard_is_applied}).
   *   <li><b>Q18</b> An empty batch, one larger than {@link #MAX_BATCH}, or one naming a message
   *       twice MUST be refused before anything is written ({@code
   *       an_empty_batch_or_one_naming_a_message_twice_is_refused_and_changes_nothing}, {@code
   *       an_oversized_resolve_is_refused_and_changes_nothing}).
   * </ol>
   *
   * @throws IllegalArgumentException if empty, larger than {@link #MAX_BATCH}, or a message appears
   *     twice
   */
  ResolveResult resolve(
      List<Resolution> resolutions, @org.jspecify.annotations.Nullable AgentGuard guard);

  /**
   * Extends a claim.
   *
   * <ol>
   *   <li><b>Q19</b> MUST set {@code lease_until = now() + lease} and keep the token if the claim
   *       still holds, and change nothing if it was lost ({@code
   *       extending_a_held_claim_moves_its_lease_forward_and_a_lost_claim_is_not_extended}).
   *   <li><b>Q20</b> MUST refuse a lease that is not positive or is longer than {@link
   *       io.tenure.Limits#MAX_DURATION} before it changes anything ({@code
   *       a_zero_or_negative_extension_is_refused_and_changes_nothing}, {@code
   *       a_claim_with_the_longest_lease_allowed_holds_extends_and_snoozes_on_the_database_clock}).
   * </ol>
   *
   * @return false if the claim was lost
   * @throws IllegalArgumentException if the lease is out of range
   */
  boolean extend(MessageClaim claim, Duration lease);

  /**
   * The reclaim sweep (SPEC §6.4). Which expired message is re-pended and which becomes a dead
   * letter is the caller's decision, {@code rule}; the store applies it.
   *
   * <ol>
   *   <li><b>Q21</b> Every {@code INFLIGHT} message whose lease expired by the database clock, up
   *       to {@code limit}, MUST be passed to {@code rule} once, as stored (its attempts counting
   *       the expired claim), and MUST then be written as decided, owner and token cleared, so its
   *       late owner's resolves are lost claims: {@link ReclaimRule.Repend} back to {@code
   *       PENDING}, available now, attempts and last error unchanged; {@link ReclaimRule.Dead}
   *       {@code DEAD}, finished now, with the decision's error. The store MUST NOT decide by
   *       itself, whatever the attempts ({@code
   *       an_expired_claim_is_reclaimed_and_its_late_owner_can_no_longer_resolve_it}, {@code
   *       an_expired_claim_the_rule_declares_dead_becomes_a_dead_letter_with_its_error}, {@code
   *       the_rule_decides_even_for_a_message_on_its_last_attempt}).
   *   <li><b>Q22</b> MUST NOT touch, or show to {@code rule}, a claim whose lease has not expired
   *       ({@code a_claim_whose_lease_has_not_expired_is_left_alone}).
   *   <li><b>Q23</b> MUST change at most {@code limit} messages and leave the rest to later calls
   *       ({@code a_reclaim_changes_at_most_its_limit_and_leaves_the_rest_to_the_next_call}).
   *   <li><b>Q23a</b> A rule that throws MUST leave every message as it was and the exception MUST
   *       reach the caller ({@code a_rule_that_throws_changes_nothing}).
   * </ol>
   *
   * @param rule decides each expired message: re-pend or dead letter
   * @return how many messages this call changed
   * @throws IllegalArgumentException if {@code limit} is less than 1
   */
  int reclaimExpired(int limit, ReclaimRule rule);

  /**
   * <b>Q24</b> A read: MUST NOT create or change anything; an id never stored, or deleted, is empty
   * ({@code finding_and_listing_change_nothing_and_an_unknown_id_is_empty}).
   *
   * @return the message, whatever its status
   */
  Optional<QueueMessage> find(long id);

  /**
   * <b>Q25</b> A read, as {@link #find}: MUST return exactly the matching messages of the query's
   * queue (every filter given: status, key, group, error, age; the same filters select what {@link
   * #replay(MessageQuery)} and {@link #purge} change), ordered by id, after {@code afterId}, up to
   * its limit ({@code dead_letters_are_listed_per_queue_in_id_order}, {@code
   * dead_letters_are_filtered_by_key_error_and_age}, {@code
   * messages_are_filtered_by_group_in_lists_replays_and_purges}, {@code
   * finding_and_listing_change_nothing_and_an_unknown_id_is_empty}).
   *
   * @return matching messages, ordered by id
   */
  List<QueueMessage> list(MessageQuery query);

  /**
   * <b>Q26</b> MUST return up to the query's limit of its matching dead letters, oldest first, to
   * {@code PENDING}, available now, unclaimed, with attempts reset to 0 and the last error kept;
   * the query's status and {@code afterId} are ignored (only {@code DEAD} rows) ({@code
   * replay_and_purge_by_query_touch_only_matching_dead_letters}, {@code
   * replay_and_purge_take_the_oldest_dead_letters_first_up_to_the_limit_whatever_the_after_id}).
   *
   * @return how many were replayed
   */
  int replay(MessageQuery deadLetters);

  /**
   * <b>Q27</b> Replays one dead letter as {@link #replay(MessageQuery)} does; MUST change nothing
   * and return false for a message that does not exist or is not {@code DEAD} ({@code
   * replaying_a_dead_letter_makes_it_pending_now_with_no_attempts_and_claimable}, {@code
   * replaying_a_message_that_is_not_dead_changes_nothing}).
   *
   * @return false if no such message exists or it is not {@code DEAD} (nothing changed)
   */
  boolean replay(long id);

  /**
   * <b>Q28</b> MUST delete up to the query's limit of its matching dead letters, oldest first, and
   * nothing else (only {@code DEAD} rows; status and {@code afterId} are ignored) ({@code
   * replay_and_purge_by_query_touch_only_matching_dead_letters}, {@code
   * replay_and_purge_take_the_oldest_dead_letters_first_up_to_the_limit_whatever_the_after_id}).
   *
   * @return how many were deleted
   */
  int purge(MessageQuery deadLetters);

  /**
   * Retention. <b>Q29</b> MUST delete, in {@code queue} only, up to {@code limit} {@code DONE}
   * messages done at least {@code doneFor} ago, and up to {@code limit} each of {@code DEAD} ones
   * that died and {@code CANCELLED} ones cancelled at least {@code deadFor} ago, by the database
   * clock, and nothing pending or in flight; <b>Q29a</b> it MUST NOT delete a finished message
   * whose dedupe window has not passed ({@code
   * retention_keeps_a_finished_message_until_its_dedupe_window_has_passed}) ({@code
   * retention_deletes_only_done_and_dead_messages_finished_long_enough_ago}, {@code
   * retention_and_age_filters_at_the_longest_retention_allowed_work}).
   *
   * @return how many were deleted
   */
  int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit);

  /**
   * <b>Q30</b> MUST list every queue with at least one stored message, whatever their status,
   * ordered by name, with the count of each status and the age of the oldest available pending
   * message ({@code stats_count_each_status_per_queue_and_the_age_of_the_oldest_available_message},
   * {@code stats_list_a_queue_whatever_the_status_of_its_only_messages}).
   *
   * @return numbers for every queue with at least one message, ordered by name
   */
  List<QueueStats> stats();

  /**
   * Cancels one message (SPEC §12.3), in one transaction conditional on its status.
   *
   * <ol>
   *   <li><b>Q32a</b> A {@code PENDING} or {@code INFLIGHT} message MUST become {@code CANCELLED}
   *       at once, finished now, with no owner, token or lease, so no claim takes it again and its
   *       owner's resolves and extensions are lost claims ({@code
   *       a_pending_message_cancelled_is_never_claimed}, {@code
   *       a_running_message_cancelled_loses_its_claim_and_its_done_changes_nothing}).
   *   <li><b>Q32b</b> A finished or missing message MUST be left as it is ({@code
   *       cancelling_a_finished_or_unknown_message_changes_nothing}).
   *   <li><b>Q32c</b> A cancel racing the owner's resolve MUST leave exactly one of them applied
   *       ({@code a_cancel_racing_the_owners_done_leaves_exactly_one_applied}).
   * </ol>
   *
   * @return what it did
   */
  io.tenure.CancelOutcome cancel(long id);

  /**
   * <b>Q32d</b> A read: MUST return the ids of {@code claims} that no longer hold (the message is
   * not {@code INFLIGHT} under that token, or is gone), and change nothing ({@code
   * lost_claims_name_the_cancelled_reclaimed_and_deleted_messages_only}).
   *
   * @param claims at most {@link #MAX_BATCH}
   * @return the ids whose claim was lost, in any order
   */
  java.util.Set<Long> lostClaims(List<MessageClaim> claims);

  /**
   * Records a running handler's progress (SPEC §12.5).
   *
   * <ol>
   *   <li><b>Q40a</b> MUST store the progress on the message if its claim holds (id, token, {@code
   *       INFLIGHT}), and change nothing and return false if it was lost ({@code
   *       progress_and_a_checkpoint_are_stored_only_under_a_claim_that_holds}).
   *   <li><b>Q40b</b> Progress and checkpoint MUST survive a retry, release, reschedule, reclaim
   *       and replay, so the next attempt reads them ({@code
   *       a_retry_and_a_reclaim_keep_the_checkpoint_for_the_next_attempt}).
   * </ol>
   *
   * @return false if the claim was lost (nothing changed)
   */
  boolean progress(MessageClaim claim, io.tenure.MessageProgress progress);

  /**
   * <b>Q40c</b> Saves a running handler's checkpoint (SPEC §12.5), to the byte, under a claim that
   * holds, as {@link #progress} does; Q40a and Q40b hold for it ({@code
   * a_checkpoint_round_trips_every_byte}).
   *
   * @return false if the claim was lost (nothing changed)
   */
  boolean checkpoint(MessageClaim claim, byte[] state);

  /**
   * @return the queues' pause and limits, which every {@link #claim} of this store applies; the
   *     same instance every call
   */
  QueueControlStore controls();

  /**
   * @return the operator's actions on one message (delete, run now, retry: rules Q33 to Q35); the
   *     same instance every call
   */
  MessageAdminStore admin();

  /**
   * Subscribes to enqueue notifications. Notifications are hints: one may be lost (a reconnect) or
   * arrive for a message another node already took; consumers that get none poll.
   *
   * <ol>
   *   <li><b>Q31</b> PostgreSQL ({@code LISTEN/NOTIFY}) and the in-memory store MUST notify each
   *       subscriber with a queue's name after messages were committed to it, and a rolled-back
   *       outbox MUST notify nobody (the enqueuer notifies inside its transaction); a store that
   *       cannot notify MUST return empty ({@code
   *       listeners_hear_committed_enqueues_and_a_rolled_back_outbox_notifies_nobody}).
   *   <li><b>Q32</b> Closing the handle MUST stop the subscription: its listener hears nothing more
   *       ({@code a_closed_subscription_hears_nothing_more}).
   * </ol>
   *
   * @param onEnqueue called with a queue's name after messages were committed to it; must return
   *     quickly (it runs on the listener's thread)
   * @return a handle that stops the subscription, or empty if the store cannot notify
   */
  Optional<AutoCloseable> listen(java.util.function.Consumer<String> onEnqueue);
}
