package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * One agent's assignment row (SPEC §5.1).
 *
 * @param uri the agent
 * @param owner the node incarnation that runs it now, or null while it is free (being handed off)
 * @param target the node incarnation the leader wants it on, or null if not yet placed
 * @param epoch the ownership epoch: incremented by every claim, so an agent can fence its own
 *     writes
 * @param paused true if an operator paused it: it runs nowhere
 * @param pinnedTo a node name the operator pinned it to, or null
 */
public record AgentAssignment(
    AgentUri uri,
    @Nullable String owner,
    @Nullable String target,
    long epoch,
    boolean paused,
    @Nullable String pinnedTo) {
  /** Requires the URI. */
  public AgentAssignment {
    if (uri == null) {
      throw new IllegalArgumentException("agent URI must not be null");
    }
  }
}
