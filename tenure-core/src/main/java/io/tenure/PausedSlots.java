package io.tenure;

/** What becomes of the slots that fall while a schedule is paused (SPEC §10.4). */
public enum PausedSlots {
  /** Forgotten: after a resume the schedule fires from its next slot on. */
  DROP,
  /**
   * Kept: after a resume they are missed slots, and the schedule's {@link MissedSlots} policy
   * decides how many of them fire.
   */
  KEEP
}
