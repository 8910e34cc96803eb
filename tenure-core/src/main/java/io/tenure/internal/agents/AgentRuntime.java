package io.tenure.internal.agents;

import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.NodeSettings;
import io.tenure.Ticker;
import io.tenure.spi.AgentStore;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipView;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs this node's agents (SPEC §5), in three parts: the leader's pass when this node leads ({@link
 * LeaderPass}), the node sweep that starts, stops, releases and restores agents ({@link
 * NodeSweep}), and the supervisor of agent calls ({@link AgentSupervisor}), the only owner of which
 * agents run here, which are busy and which were stopped.
 */
public final class AgentRuntime {
  private final NodeSettings settings;
  private final LeaderPass leaderPass;
  private final NodeSweep sweep;
  private final AgentSupervisor agents;

  public AgentRuntime(
      AgentStore store,
      NodeSettings settings,
      Map<String, AgentFamily> families,
      Supplier<String> nodeId,
      EventStore events,
      Ticker ticker) {
    Map<String, AgentFamily> copy = Map.copyOf(families);
    AgentEvents history = new AgentEvents(events, nodeId);
    this.settings = settings;
    this.agents = new AgentSupervisor(store, settings, copy, history);
    this.leaderPass = new LeaderPass(store, settings, copy, history, ticker);
    this.sweep = new NodeSweep(store, settings, nodeId, agents, history);
  }

  /**
   * The leader's pass: plan from a snapshot, then apply each write under the fence.
   *
   * @return 0, or how many nanoseconds until the next pass has work this one could not do: agents
   *     that have no row yet may be placed (they are held back while membership is not yet quiet,
   *     {@code initialPlacementDelay}), a silent node may be declared dead, or a dead node's agents
   *     may be freed ({@link PassDeadlines}); the caller may run the next pass then
   */
  public long leaderPass(LeaderFence fence, MembershipView membership) {
    return leaderPass.run(fence, membership);
  }

  /** One node sweep that may take {@code maxReconciliationsPerTick} actions. */
  public void sweepTick() {
    int cap = settings.maxReconciliationsPerTick();
    sweepTick(cap > 0 ? cap : Integer.MAX_VALUE);
  }

  /**
   * One node sweep.
   *
   * @param most the most actions it may take (the per-tick cap, less what recent woken sweeps took)
   * @return how many actions it took
   * @throws IllegalArgumentException if {@code most} is not positive
   */
  public int sweepTick(int most) {
    return sweep.run(most);
  }

  /** Stops a local agent; releases its row after the stop returned if {@code release}. */
  public void stop(AgentUri uri, boolean release) {
    agents.stop(uri, release);
  }

  /**
   * Stops every local agent (self-fence, ejection, leave) at once, not one after another: the whole
   * stop must fit in the margin before the leader may hand them elsewhere. Releases the rows if
   * {@code release}. Returns within one stop deadline.
   */
  public void stopAll(boolean release) {
    agents.stopAll(release);
  }

  /**
   * @return agents running here now
   */
  public Set<AgentUri> running() {
    return agents.running();
  }

  public void close() {
    agents.close();
  }
}
