package io.tenure;

import java.util.List;
import java.util.Optional;

/**
 * Durable schedules that enqueue one message per slot, exactly once through fail-overs (SPEC §10):
 * from {@link Tenure#schedules()}. Every node may declare the same schedules at start; the
 * cluster's leader fires them.
 *
 * <pre>{@code
 * Queue reports = tenure.queue("reports", QueuePolicy.defaults());
 * tenure.schedules().declare(Schedule.cron("nightly-report", "30 2 * * *")
 *     .zone("Europe/Berlin")
 *     .enqueue(reports, OutgoingMessage.text("run the nightly report")));
 * }</pre>
 *
 * A schedule fires only on a cluster: a running {@link TenureNode} that becomes leader fires every
 * schedule of the store, whoever declared it. Thread-safe.
 */
public interface Schedules {
  /** What a declaration did. */
  enum Declared {
    /** No schedule had the name: it was created, its first slot the next one after now. */
    CREATED,
    /** The name had another definition: replaced, effective from the next slot after now. */
    UPDATED,
    /** The same definition was there: nothing changed (its next slot is kept). */
    UNCHANGED
  }

  /**
   * Creates or updates the schedule by name: idempotent, so every node may declare the same
   * schedules at start. A changed definition takes effect from its next slot after now; pause
   * state, counts and last fire are kept.
   *
   * @param schedule the definition, with {@link Schedule#enqueue} set
   * @return what changed
   * @throws IllegalArgumentException if the schedule has no message, or its queue was not opened
   *     with {@link Tenure#queue} on this Tenure (naming the queue); nothing stored
   * @throws StoreUnavailableException if the database cannot be reached
   */
  Declared declare(Schedule schedule);

  /**
   * Pauses the schedule, cluster-wide and durably: no slot fires until it is resumed.
   *
   * @return false if it was paused already
   * @throws IllegalArgumentException if no schedule has the name, naming it
   */
  boolean pause(String name);

  /**
   * Resumes a paused schedule: with {@link PausedSlots#DROP} from its next slot after now, with
   * {@link PausedSlots#KEEP} the slots that fell meanwhile are missed slots.
   *
   * @return false if it was not paused
   * @throws IllegalArgumentException if no schedule has the name, naming it
   */
  boolean resume(String name);

  /**
   * Enqueues the schedule's message now, outside its slots (its next slot is unchanged).
   *
   * @return the new message's id
   * @throws IllegalArgumentException if no schedule has the name, naming it
   */
  long trigger(String name);

  /**
   * Deletes the schedule; messages it enqueued stay.
   *
   * @return false if no schedule had the name
   */
  boolean delete(String name);

  /**
   * @return every schedule of the store, by name (at most 10,000)
   */
  List<ScheduleInfo> list();

  /**
   * @return the schedule, if there is one of that name
   * @throws IllegalArgumentException if the name is invalid
   */
  Optional<ScheduleInfo> find(String name);
}
