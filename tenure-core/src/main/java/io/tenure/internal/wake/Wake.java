package io.tenure.internal.wake;

import io.tenure.Queue;

/**
 * What one datagram asks for: a queue's consumers to claim now, or every node to sweep its agents
 * now because the leader placed some. Neither carries anything to trust: each only brings forward
 * work the node would do at its next poll or sweep anyway.
 */
sealed interface Wake {
  /** Claim now on {@code name}. */
  record OfQueue(String name) implements Wake {
    /**
     * @throws IllegalArgumentException if {@code name} is not a queue name ({@link Queue#NAME})
     */
    public OfQueue {
      Queue.checkName(name);
    }
  }

  /** The leader committed placements: sweep the agents now. */
  record AgentsPlaced() implements Wake {}

  /** The one agents-placed wake-up: it has no fields, so every one is this one. */
  AgentsPlaced AGENTS_PLACED = new AgentsPlaced();
}
