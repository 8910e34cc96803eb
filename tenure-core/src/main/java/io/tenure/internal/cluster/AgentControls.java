package io.tenure.internal.cluster;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.NodeSettings;
import io.tenure.NodeStatus;
import io.tenure.TenureException;
import io.tenure.Ticker;
import io.tenure.internal.agents.AgentRuntime;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An operator's actions on agents through a node: pause, resume, pin, and a leader pass on demand.
 * Each writes the assignment row first and leaves the placing and stopping to the runtime.
 */
final class AgentControls {
  private final Store store;
  private final NodeSettings settings;
  private final AgentRuntime agents;
  private final Supplier<Optional<LeaderFence>> fence;
  private final Ticker ticker;

  AgentControls(
      Store store,
      NodeSettings settings,
      AgentRuntime agents,
      Supplier<Optional<LeaderFence>> fence,
      Ticker ticker) {
    this.ticker = ticker;
    this.store = store;
    this.settings = settings;
    this.agents = agents;
    this.fence = fence;
  }

  /** See {@link io.tenure.TenureNode#pause}. */
  void pause(AgentUri uri) {
    if (!store.agents().setPaused(uri, true)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing paused");
    }
    agents.stop(uri, true);
    Duration bound =
        settings.agentStopTimeout().plus(settings.agentSweepInterval().multipliedBy(2));
    long deadline = ticker.read() + bound.toNanos();
    while (store.agents().read(uri).map(row -> row.owner() != null).orElse(false)) {
      if (ticker.read() - deadline > 0) {
        throw new TenureException(
            "agent "
                + uri
                + " is paused but its owner "
                + store.agents().read(uri).map(AgentAssignment::owner).orElse("?")
                + " did not stop it within "
                + bound);
      }
      sleepBriefly();
    }
  }

  /** See {@link io.tenure.TenureNode#resume}. */
  void resume(AgentUri uri) {
    if (!store.agents().setPaused(uri, false)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing resumed");
    }
  }

  /** See {@link io.tenure.TenureNode#pin}. */
  void pin(AgentUri uri, @Nullable String nodeName) {
    if (nodeName != null
        && store.membership().read().nodes().stream()
            .noneMatch(
                n ->
                    n.name().equals(nodeName)
                        && n.status() == NodeStatus.ACTIVE
                        && n.capabilities().contains(uri.scheme()))) {
      throw new IllegalArgumentException(
          "no ACTIVE node named '"
              + nodeName
              + "' can run "
              + uri.scheme()
              + " agents; "
              + uri
              + " not pinned");
    }
    if (!store.agents().pin(uri, nodeName)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing pinned");
    }
  }

  /** See {@link io.tenure.TenureNode#rebalance}. */
  boolean rebalance() {
    Optional<LeaderFence> current = fence.get();
    current.ifPresent(f -> agents.leaderPass(f, store.membership().read()));
    return current.isPresent();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TenureException("interrupted while waiting for an agent to stop", e);
    }
  }
}
