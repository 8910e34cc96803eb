package io.tenure.internal.wake;

import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.ForwardingAgentStore;
import io.tenure.spi.LeaderFence;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An agent store whose leader placements wake every node's agent sweep: once {@link #placeAll}
 * returned having written (that is, after its commit), an agents-placed datagram goes to every node
 * that takes wake-ups, as {@link #listen} does on the stores that notify (PostgreSQL). The nodes'
 * end is {@link WakeHost#onAgentsPlaced}: a node's store is shared by every node built on it, while
 * its socket is its own. Everything else passes through.
 */
final class WakingAgentStore extends ForwardingAgentStore {
  private final WakeSender sender;

  WakingAgentStore(AgentStore delegate, WakeSender sender) {
    super(delegate);
    this.sender = sender;
  }

  @Override
  public AssignmentWrite placeAll(
      Map<AgentUri, @Nullable String> targets, Set<AgentUri> onlyIfUnowned, LeaderFence fence) {
    AssignmentWrite result = delegate().placeAll(targets, onlyIfUnowned, fence);
    // As the store's own notification: a write of at least one agent, never a fenced one.
    if (result == AssignmentWrite.APPLIED && !targets.isEmpty()) {
      sender.agentsPlaced();
    }
    return result;
  }
}
