package io.tenure;

import java.util.Set;

/**
 * The agents of one scheme, e.g. every {@code projection://...}. Register the family on each node
 * that can run it ({@link TenureNode.Builder#agentFamily}); the scheme becomes one of the node's
 * capabilities. The leader asks its own families which agents should exist, so every promotable
 * node should register every family.
 */
public interface AgentFamily {
  /**
   * @return the scheme, e.g. {@code projection}
   */
  String scheme();

  /**
   * @return every agent of this family that should run somewhere now; called on each leader pass,
   *     so keep it cheap; every URI must have this family's scheme
   */
  Set<AgentUri> wantedAgents();

  /**
   * @return a new agent for {@code uri}, not started
   */
  Agent build(AgentUri uri);
}
