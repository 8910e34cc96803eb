package io.tenure;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A schedule as the store saw it in one read (SPEC §10): its definition and where it stands.
 *
 * @param schedule the definition, as last declared
 * @param maxAttempts the attempts each slot's message gets: its queue's policy when declared
 * @param paused whether it is paused
 * @param pausedAt when it was paused; null while it runs
 * @param nextFireAt its next slot, by the database clock; in the past while a fire is due (or while
 *     paused)
 * @param lastFireAt when its last message was enqueued (a slot or a manual trigger); null if never
 * @param lastSlotAt the slot its last fire was for; null if none fired yet
 * @param lastMessageId the id of its last message; null if none
 * @param fired how many slots fired
 * @param skipped how many slots were skipped by its missed-slot policy
 * @param version grows with every change of the row (a declaration, a fire, a pause or resume)
 * @param readAt the database's now when this was read
 */
public record ScheduleInfo(
    Schedule schedule,
    int maxAttempts,
    boolean paused,
    @Nullable Instant pausedAt,
    Instant nextFireAt,
    @Nullable Instant lastFireAt,
    @Nullable Instant lastSlotAt,
    @Nullable Long lastMessageId,
    long fired,
    long skipped,
    long version,
    Instant readAt) {
  /**
   * @throws NullPointerException if a required part is null
   * @throws IllegalArgumentException if maxAttempts is below 1
   */
  public ScheduleInfo {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(nextFireAt, "nextFireAt");
    Objects.requireNonNull(readAt, "readAt");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
    }
  }

  /**
   * @return the schedule's name
   */
  public String name() {
    return schedule.name();
  }

  /**
   * @return whether a fire is due: running and its next slot has come
   */
  public boolean due() {
    return !paused && !nextFireAt.isAfter(readAt);
  }
}
