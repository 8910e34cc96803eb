package io.tenure;

import java.util.Set;
import java.util.function.Function;

/**
 * The agents of one scheme, e.g. every {@code projection://...}. Register the family on each node
 * that can run it ({@link TenureNodeBuilder#agentFamily}); the scheme becomes one of the node's
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

  /**
   * A family of a fixed set of agents.
   *
   * @param scheme the family's scheme
   * @param wanted the agents that should run, each of this scheme (copied)
   * @param build makes a new, not yet started agent for a URI
   */
  static AgentFamily of(String scheme, Set<AgentUri> wanted, Function<AgentUri, Agent> build) {
    Set<AgentUri> agents = Set.copyOf(wanted);
    return new AgentFamily() {
      @Override
      public String scheme() {
        return scheme;
      }

      @Override
      public Set<AgentUri> wantedAgents() {
        return agents;
      }

      @Override
      public Agent build(AgentUri uri) {
        return build.apply(uri);
      }
    };
  }
}
