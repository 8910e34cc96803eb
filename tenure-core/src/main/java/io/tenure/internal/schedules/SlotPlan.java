package io.tenure.internal.schedules;

import java.time.Instant;
import java.util.List;

/**
 * What a schedule does now: the slots to fire, how many due slots it skips, and its next slot.
 *
 * @param fire the slots to fire, oldest first (at most {@link SlotPlanner#MAX_FIRED})
 * @param skipped the due slots that do not fire
 * @param skippedAtLeast true if {@code skipped} is a lower bound: counting stopped at {@link
 *     SlotPlanner#MAX_LOOKUPS} slots (only a cron schedule's are counted one by one)
 * @param nextFire the first slot after now, or the given next fire if nothing was due
 */
record SlotPlan(List<Instant> fire, long skipped, boolean skippedAtLeast, Instant nextFire) {
  SlotPlan {
    fire = List.copyOf(fire);
  }
}
