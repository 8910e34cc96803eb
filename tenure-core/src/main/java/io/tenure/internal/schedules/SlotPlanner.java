package io.tenure.internal.schedules;

import io.tenure.Limits;
import io.tenure.MissedSlots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which of a schedule's due slots fire: a pure function of the slots, the schedule's next fire, the
 * time and its missed-slot policy.
 *
 * <p>The due slots are the slots from the next fire to now, both included. A due slot is on time if
 * it is at most {@code missedAfter} old, missed otherwise. On-time slots always fire; the policy
 * decides which missed ones do (see {@link MissedSlots}). Whatever the policy, the slots that fire
 * are the most recent due ones, and the rest are skipped.
 *
 * <p>The work is bounded, however long the schedule was down (a 1-second schedule after a month has
 * 2.6 million due slots): at most {@link #MAX_FIRED} slots fire, and at most {@link #MAX_LOOKUPS}
 * slots are looked up in all. An interval's skipped slots are counted by arithmetic, exactly; a
 * cron schedule's one by one, up to the bound, after which the count is a lower bound.
 */
final class SlotPlanner {
  /** The most slots one plan fires, whatever the policy: on-time ones beyond it are skipped. */
  static final int MAX_FIRED = MissedSlots.MAX_CATCH_UP;

  /** The most slots one plan looks up, to fire them and to count the skipped ones. */
  static final int MAX_LOOKUPS = 10_000;

  private SlotPlanner() {}

  /**
   * The plan for a schedule at {@code now}.
   *
   * @param slots when the schedule's slots fall
   * @param nextFire the schedule's next fire: the first slot not yet fired or skipped (if it is not
   *     a slot, the due slots begin at the first slot after it)
   * @param now the time
   * @param policy what becomes of missed slots
   * @param missedAfter the age beyond which a due slot is missed (0 to {@link Limits#MAX_DURATION})
   * @return the slots to fire, oldest first, the count of those skipped, and the next fire: the
   *     first slot after {@code now}, or {@code nextFire} unchanged if nothing is due
   * @throws IllegalArgumentException naming the argument if one is null or {@code missedAfter} is
   *     negative or longer than {@link Limits#MAX_DURATION}
   */
  static SlotPlan plan(
      Slots slots, Instant nextFire, Instant now, MissedSlots policy, Duration missedAfter) {
    Arguments.notNull("slots", slots);
    Arguments.notNull("nextFire", nextFire);
    Arguments.notNull("now", now);
    Arguments.notNull("policy", policy);
    Limits.checkNotNegative("missedAfter", missedAfter, Limits.MAX_DURATION);
    @Nullable Instant latest = slots.latestAtOrBefore(now).orElse(null);
    if (latest == null || latest.isBefore(nextFire)) {
      return new SlotPlan(List.of(), 0, false, nextFire);
    }
    Instant onTimeFrom = now.minus(missedAfter);
    Firing firing = firing(policy, !latest.isBefore(onTimeFrom));
    Instant oldest = firing.onTimeOnly() && onTimeFrom.isAfter(nextFire) ? onTimeFrom : nextFire;
    List<Instant> newestFirst = new ArrayList<>();
    @Nullable Instant slot = latest;
    while (slot != null && !slot.isBefore(oldest) && newestFirst.size() < firing.most()) {
      newestFirst.add(slot);
      slot = slots.latestAtOrBefore(slot.minusNanos(1)).orElse(null);
    }
    List<Instant> fire = newestFirst.reversed();
    if (slot == null || slot.isBefore(nextFire)) {
      return new SlotPlan(fire, 0, false, slots.nextAfter(now));
    }
    int budget = Math.max(1, MAX_LOOKUPS - fire.size());
    Count skipped = countFromTo(slots, nextFire, slot, budget);
    return new SlotPlan(fire, skipped.count(), skipped.atLeast(), slots.nextAfter(now));
  }

  /** Which due slots may fire: the most recent {@code most}, of the on-time ones only or of all. */
  private record Firing(int most, boolean onTimeOnly) {}

  /**
   * @param onTime whether the latest due slot is on time
   */
  private static Firing firing(MissedSlots policy, boolean onTime) {
    return switch (policy) {
      case MissedSlots.Skip skip -> new Firing(MAX_FIRED, true);
      case MissedSlots.Latest latest -> onTime ? new Firing(MAX_FIRED, true) : new Firing(1, false);
      case MissedSlots.CatchUp(int max) -> new Firing(max, false);
    };
  }

  /** A number of slots, and whether counting stopped at a bound before the end. */
  private record Count(long count, boolean atLeast) {}

  /**
   * The slots from the first at or after {@code from} to {@code last}, a slot not before it: by
   * arithmetic for an interval, else one by one up to {@code budget}.
   */
  private static Count countFromTo(Slots slots, Instant from, Instant last, int budget) {
    return switch (slots) {
      case IntervalSlots interval ->
          new Count(interval.count(interval.nextAfter(from.minusNanos(1)), last), false);
      case CronSlots cron -> countOneByOne(cron, cron.nextAfter(from.minusNanos(1)), last, budget);
    };
  }

  /** Counts from {@code first} to {@code last}, both slots, stopping at {@code budget}. */
  private static Count countOneByOne(Slots slots, Instant first, Instant last, int budget) {
    long count = 1;
    Instant slot = first;
    while (slot.isBefore(last)) {
      if (count == budget) {
        return new Count(count, true);
      }
      slot = slots.nextAfter(slot);
      count++;
    }
    return new Count(count, false);
  }
}
