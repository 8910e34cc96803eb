package io.tenure;

/** A node row's lifecycle: {@code JOINING -> ACTIVE -> LEAVING -> (deleted)}, or {@code DEAD}. */
public enum NodeStatus {
  /** Inserted; the runtime is still starting. */
  JOINING,
  /** Running and heart-beating. */
  ACTIVE,
  /** Leaving gracefully: stopping its work before it deletes its own row. */
  LEAVING,
  /** Declared dead by the leader; the node must rejoin as a new incarnation. Terminal. */
  DEAD
}
