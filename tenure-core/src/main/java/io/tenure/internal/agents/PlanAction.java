package io.tenure.internal.agents;

import io.tenure.AgentUri;

/** One write the leader applies after a planning pass; each is fenced by its epoch. */
public sealed interface PlanAction {
  /**
   * @return the agent concerned
   */
  AgentUri uri();

  /**
   * Set the agent's target (inserting its row if needed). {@code move} marks a rebalancing move;
   * {@code unowned} marks an agent nobody owned in the snapshot: its re-targeting stops nothing, so
   * it is not counted as a move, and it is written only while the row is still unowned.
   */
  record Place(AgentUri uri, String target, boolean move, boolean unowned) implements PlanAction {}

  /** The agent is no longer wanted but still owned: clear its target so the owner stops it. */
  record Unplace(AgentUri uri) implements PlanAction {}

  /** The agent is no longer wanted and nobody owns it: delete its row. */
  record Retire(AgentUri uri) implements PlanAction {}

  /** Its owner is no longer active: free the row (the store waits for the owner's self-fence). */
  record ReleaseFromDeadOwner(AgentUri uri, String deadOwner) implements PlanAction {}
}
