package io.tenure.spi;

/** The result of a membership write. Every outcome but {@link #APPLIED} changed nothing. */
public enum MembershipWrite {
  /** The row and the membership version were written together. */
  APPLIED,
  /** The membership version was not the one read: re-read and decide again. */
  STALE_VERSION,
  /** A join found a row with this node id. */
  DUPLICATE_NODE,
  /** The node row does not exist, or is not in a state this change applies to. */
  NOT_ELIGIBLE,
  /** A leader-only write whose epoch is no longer the current, unexpired one. */
  FENCED
}
