package io.tenure.spi;

import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Durable schedules (SPEC §10): one row per name with its definition and where it stands. The
 * leader fires a schedule's due slots in one transaction with the move of its next slot, under the
 * leader fence and on the row's version, and each slot's message carries a dedupe key of the
 * schedule and the slot: so a slot enqueues one message, whoever fires it and however often.
 *
 * <p>Rules for every method, each checked by {@code io.tenure.tck.SchedulesComplianceTest} on every
 * provider (the test named in a rule checks it):
 *
 * <ol>
 *   <li><b>S1</b> Times MUST come from the database clock; a lost race MUST be a result, never an
 *       exception ({@code eight_leaders_fire_one_version_and_exactly_one_enqueues}).
 *   <li><b>S2</b> A missing table MUST be a {@link io.tenure.SchemaMissingException}, and a closed
 *       store or an unreachable database a {@link io.tenure.StoreUnavailableException} ({@code
 *       a_closed_store_refuses_schedule_calls_as_unavailable_and_a_dropped_table_as_missing}).
 * </ol>
 */
public interface ScheduleStore {
  /**
   * Creates or updates a schedule by name.
   *
   * <ol>
   *   <li><b>S3</b> No row of the name: MUST insert it, its next slot {@code
   *       definition.nextFireAt()}, running, version 1, counts 0: {@code CREATED}. Of any number of
   *       concurrent declarations of one new name, exactly one creates it ({@code
   *       eight_nodes_declare_one_new_schedule_and_one_creates_it}).
   *   <li><b>S4</b> A row whose {@link ScheduleDefinition#fingerprint()} is the same: MUST change
   *       nothing, its next slot and version kept: {@code UNCHANGED} ({@code
   *       declaring_the_same_definition_again_changes_nothing}).
   *   <li><b>S5</b> A row with another definition: MUST replace the definition, set the next slot
   *       to {@code definition.nextFireAt()} and add 1 to the version, keeping pause state, counts
   *       and last fire: {@code UPDATED} ({@code
   *       a_changed_definition_replaces_the_old_from_its_next_slot_and_keeps_the_rest}).
   *   <li><b>S6</b> Every part of the definition MUST read back as declared ({@code
   *       every_part_of_a_definition_round_trips}).
   * </ol>
   */
  Schedules.Declared declare(ScheduleDefinition definition);

  /**
   * <b>S7</b> A read; MUST NOT change anything; an unknown name is empty ({@code
   * lists_and_reads_change_nothing}).
   *
   * @throws IllegalArgumentException if the name is invalid
   */
  Optional<ScheduleInfo> read(String name);

  /**
   * <b>S7</b> Every schedule by name, at most {@code limit}, with the database's now.
   *
   * @throws IllegalArgumentException if limit is not 1 to 10,000
   */
  List<ScheduleInfo> list(int limit);

  /**
   * <b>S8</b> The schedules a leader should fire now: running and with their next slot at or before
   * the database's now, oldest next slot first, at most {@code limit} ({@code
   * due_lists_running_schedules_whose_next_slot_has_come_oldest_first}).
   *
   * @throws IllegalArgumentException if limit is not 1 to 10,000
   */
  List<ScheduleInfo> due(int limit);

  /**
   * <b>S8</b> The earliest next slot of the running schedules, for a leader to wait until; empty
   * when none runs.
   */
  Optional<Instant> nextDue();

  /**
   * Fires one schedule in one transaction.
   *
   * <ol>
   *   <li><b>S9</b> Only while {@code fence} is the current leader's (fail closed) and the row is
   *       still at {@code firing.version()}; otherwise MUST change nothing and return {@code
   *       Fenced} or {@code Lost} ({@code a_fire_under_a_stale_fence_changes_nothing}, {@code
   *       a_fire_from_a_stale_version_changes_nothing}).
   *   <li><b>S10</b> MUST enqueue each slot's message and move the row (next slot, last fire now,
   *       last slot, last message, fired + slots, skipped + skipped, version + 1) in one
   *       transaction, all or nothing ({@code
   *       a_fire_enqueues_each_slots_message_and_moves_the_schedule_in_one_transaction}).
   *   <li><b>S11</b> A slot whose message's dedupe key is already in the queue MUST NOT enqueue a
   *       second one; its id is the existing message's ({@code
   *       a_slot_fired_twice_enqueues_one_message}).
   *   <li><b>S12</b> Of concurrent fires of one version, exactly one applies ({@code
   *       eight_leaders_fire_one_version_and_exactly_one_enqueues}).
   * </ol>
   */
  ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing);

  /**
   * <b>S13</b> Pauses or resumes a schedule and adds 1 to its version; pausing records the
   * database's now; resuming with {@code nextFireAt} moves the next slot there, without keeps it
   * ({@code pausing_stops_a_schedule_being_due_and_resuming_moves_its_next_slot}).
   *
   * @return false if there is no such schedule or it was already so (nothing changed)
   */
  boolean setPaused(String name, boolean paused, @Nullable Instant nextFireAt);

  /**
   * <b>S14</b> Enqueues {@code message} now for the schedule, outside its slots, setting its last
   * fire and last message; its next slot and counts are kept ({@code
   * a_trigger_enqueues_at_once_and_keeps_the_next_slot}).
   *
   * @return the message id; empty (nothing enqueued) if there is no such schedule
   */
  Optional<Long> trigger(String name, NewMessage message);

  /**
   * <b>S15</b> Deletes the schedule's row; its messages stay ({@code
   * deleting_removes_the_schedule_and_keeps_its_messages}).
   *
   * @return false if there was none
   */
  boolean delete(String name);
}
