package io.tenure;

/**
 * A long-running singleton: at most one node runs a given agent at any instant (SPEC §5.5). {@code
 * start} and {@code stop} each have a deadline ({@link AgentContext#deadline()}); a call still
 * running past it is abandoned, never interrupted, and its agent is neither started nor stopped
 * again while it runs.
 */
public interface Agent {
  /**
   * Starts the agent's work (usually on threads of its own) and returns.
   *
   * @throws Exception if it could not start; the node retries on a later sweep
   */
  void start(AgentContext context) throws Exception;

  /**
   * Stops the agent's work and returns once it no longer runs.
   *
   * @throws Exception if it failed to stop cleanly; it is still counted as stopped
   */
  void stop(AgentContext context) throws Exception;
}
