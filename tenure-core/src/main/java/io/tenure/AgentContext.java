package io.tenure;

import java.time.Duration;

/** What an agent knows about where and under which fencing token it runs. */
public interface AgentContext {
  /**
   * @return the agent's URI
   */
  AgentUri uri();

  /**
   * @return the incarnation id of the node running it
   */
  String nodeId();

  /**
   * @return the ownership epoch: it grows with every claim of this agent, so the agent can pass it
   *     to its own writes as a fencing token
   */
  long ownershipEpoch();

  /**
   * @return true if the assignment row still names this node at this ownership epoch (one read)
   * @throws StoreException if the store failed
   */
  boolean stillOwner();

  /**
   * @return how long the current {@code start} or {@code stop} call may take
   */
  Duration deadline();
}
