package io.tenure;

/**
 * What a schedule does with the slots it missed: slots that fell due while no node could fire them
 * (the fleet was down, the schedule was paused) and that are older than the schedule's grace when
 * it looks again. Slots within the grace are on time and always fire; this policy decides only
 * about the older ones.
 *
 * <ul>
 *   <li>{@link #skip()}: none of them fires.
 *   <li>{@link #latest()}: the latest of them fires, once, unless an on-time slot fires anyway.
 *   <li>{@link #catchUp(int)}: the most recent of them fire, so that at most {@code max} slots fire
 *       in all, on-time ones counted first; the older ones are skipped.
 * </ul>
 */
public sealed interface MissedSlots
    permits MissedSlots.CatchUp, MissedSlots.Latest, MissedSlots.Skip {
  /** The most slots {@link #catchUp(int)} may fire at once: 10,000. */
  int MAX_CATCH_UP = 10_000;

  /**
   * Fires the most recent missed slots, so that at most {@code max} slots fire in all.
   *
   * @param max the most slots that fire at once, on-time and missed together (1 to {@value
   *     #MAX_CATCH_UP})
   * @return the policy
   * @throws IllegalArgumentException naming {@code max} if it is below 1 or above {@value
   *     #MAX_CATCH_UP}
   */
  static MissedSlots catchUp(int max) {
    return new CatchUp(max);
  }

  /**
   * Fires the latest missed slot, once, unless an on-time slot fires anyway.
   *
   * @return the policy
   */
  static MissedSlots latest() {
    return new Latest();
  }

  /**
   * Fires no missed slot: only on-time slots fire.
   *
   * @return the policy
   */
  static MissedSlots skip() {
    return new Skip();
  }

  /**
   * Fires the most recent missed slots, so that at most {@code max} slots fire in all, on-time ones
   * counted first; the older missed slots are skipped.
   *
   * @param max the most slots that fire at once (1 to {@value MissedSlots#MAX_CATCH_UP})
   */
  record CatchUp(int max) implements MissedSlots {
    /**
     * Checks {@code max}.
     *
     * @throws IllegalArgumentException naming {@code max} if it is below 1 or above {@value
     *     MissedSlots#MAX_CATCH_UP}
     */
    public CatchUp {
      if (max < 1 || max > MAX_CATCH_UP) {
        throw new IllegalArgumentException(
            "catch-up max must be 1 to " + MAX_CATCH_UP + " slots, got " + max);
      }
    }
  }

  /** Fires the latest missed slot, once, unless an on-time slot fires anyway. */
  record Latest() implements MissedSlots {}

  /** Fires no missed slot. */
  record Skip() implements MissedSlots {}
}
