package io.tenure.spi;

/**
 * The result of a leader-only assignment write. Every outcome but {@link #APPLIED} changed nothing.
 */
public enum AssignmentWrite {
  /** Written. */
  APPLIED,
  /** The row is missing or not in a state this write applies to. */
  NOT_ELIGIBLE,
  /** The leader fence is not current: a newer epoch exists or the lease expired. */
  FENCED
}
