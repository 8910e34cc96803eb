package io.tenure.spi;

import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import java.util.List;

/**
 * Queue pause and limits (SPEC §12.1, §12.2), stored durably per queue and applied by every claim
 * of the queue ({@link QueueStore#claim}) in the claim's own statement or transaction, never by a
 * node's counters.
 *
 * <p>Rules, each checked by {@code io.tenure.tck.QueueControlComplianceTest} on every provider (the
 * test named in a rule checks it):
 *
 * <ol>
 *   <li><b>C1</b> A paused queue's claims MUST take nothing, on every store of the namespace, from
 *       the pause's commit until a resume; its messages in flight MUST stay claimed and resolvable
 *       ({@code a_paused_queue_claims_nothing_and_its_claimed_messages_still_finish}, {@code
 *       a_pause_is_seen_by_another_store_of_the_same_database}).
 *   <li><b>C2</b> A claim MUST NOT take the queue's messages in flight above {@code maxInFlight},
 *       counted in the claim's transaction, however many claims run at once on however many stores
 *       ({@code a_claim_takes_only_what_the_in_flight_limit_leaves}, {@code
 *       eight_claimers_racing_never_exceed_the_in_flight_limit}).
 *   <li><b>C3</b> A claim MUST NOT take any group's messages in flight above {@code
 *       maxInFlightPerGroup}, and MUST still take other groups' messages behind a full group's
 *       backlog; messages without a group are held only by C2 ({@code
 *       a_full_group_is_passed_over_and_the_groups_behind_it_are_claimed}, {@code
 *       eight_claimers_racing_never_exceed_a_group_limit}).
 *   <li><b>C4</b> A claim MUST NOT make the queue's claims (or, per group, a group's) in any period
 *       of the rate's length exceed its count, by the database clock ({@code
 *       a_rate_limit_admits_its_count_per_period_and_then_nothing_until_the_period_passes}, {@code
 *       claims_older_than_the_rate_period_no_longer_count}, {@code
 *       a_per_group_rate_limits_each_group_apart}).
 *   <li><b>C5</b> Within what the limits allow, the claim rules of {@link QueueStore#claim} hold
 *       unchanged: priority, then age; one message per key at a time ({@code
 *       limits_keep_the_key_order_and_the_priority_order}).
 *   <li><b>C6</b> Pausing, resuming and setting limits MUST change no message, and a queue's
 *       control MUST NOT change another queue's claims ({@code
 *       setting_limits_or_a_pause_changes_no_message_and_no_other_queue}).
 *   <li><b>C7</b> {@link #read} and {@link #list} are reads: they MUST NOT create or change
 *       anything; a queue never controlled reads as not paused, no limits ({@code
 *       a_queue_never_controlled_reads_as_free_and_reading_creates_nothing}).
 * </ol>
 */
public interface QueueControlStore {
  /**
   * @param queue a queue name ({@link io.tenure.Queue#checkName})
   * @return the queue's control and its current use; not paused and no limits if never set
   */
  QueueControl read(String queue);

  /**
   * @return every queue with a stored control, ordered by name
   */
  List<QueueControl> list();

  /**
   * Pauses or resumes the queue. A resume on PostgreSQL notifies the queue's consumers, which claim
   * at once.
   *
   * @return true if this call changed it (false: it already was)
   */
  boolean pause(String queue, boolean paused);

  /**
   * Stores the queue's limits, replacing the ones before; {@link QueueLimits#none()} lifts them.
   */
  void limit(String queue, QueueLimits limits);
}
