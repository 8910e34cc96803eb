package io.tenure;

/** Why a node stopped being leader. */
public enum DemotionReason {
  /** A renewal was refused: another node holds the lease or the epoch moved on. */
  SUPERSEDED,
  /** No renewal succeeded for {@code fenceAfter} on the node's monotonic clock. */
  SELF_FENCE,
  /** The node's membership row was gone or dead; it rejoins as a new incarnation. */
  EJECTED,
  /** The node stepped down on shutdown. */
  STEP_DOWN,
  /**
   * The node lost its session lock (its connection was closed or killed) and another session took
   * it: that candidate may take the lease over, so the node stops leading and steps down at once.
   */
  LOCK_LOST
}
