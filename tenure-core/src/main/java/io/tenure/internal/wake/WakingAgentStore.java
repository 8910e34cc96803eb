package io.tenure.internal.wake;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.SkippedRows;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * An agent store whose leader placements wake every node's agent sweep: once {@link #placeAll}
 * returned having written (that is, after its commit), an agents-placed datagram goes to every node
 * that takes wake-ups, as {@link #listen} does on the stores that notify (PostgreSQL). The nodes'
 * end is {@link WakeHost#onAgentsPlaced}: a node's store is shared by every node built on it, while
 * its socket is its own. Everything else passes through.
 */
final class WakingAgentStore implements AgentStore {
  private final AgentStore delegate;
  private final WakeSender sender;

  WakingAgentStore(AgentStore delegate, WakeSender sender) {
    this.delegate = delegate;
    this.sender = sender;
  }

  @Override
  public AssignmentWrite placeAll(
      Map<AgentUri, @Nullable String> targets, Set<AgentUri> onlyIfUnowned, LeaderFence fence) {
    AssignmentWrite result = delegate.placeAll(targets, onlyIfUnowned, fence);
    // As the store's own notification: a write of at least one agent, never a fenced one.
    if (result == AssignmentWrite.APPLIED && !targets.isEmpty()) {
      sender.agentsPlaced();
    }
    return result;
  }

  @Override
  public Optional<AutoCloseable> listen(LongConsumer onPlaced) {
    return delegate.listen(onPlaced);
  }

  @Override
  public List<AgentAssignment> readAll() {
    return delegate.readAll();
  }

  @Override
  public Optional<AgentAssignment> read(AgentUri uri) {
    return delegate.read(uri);
  }

  @Override
  public List<AgentAssignment> readFor(String nodeId, Collection<AgentUri> alsoThese) {
    return delegate.readFor(nodeId, alsoThese);
  }

  @Override
  public AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence fence) {
    return delegate.place(uri, target, fence);
  }

  @Override
  public AssignmentWrite retire(AgentUri uri, LeaderFence fence) {
    return delegate.retire(uri, fence);
  }

  @Override
  public AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence fence) {
    return delegate.releaseFromDeadOwner(uri, deadOwner, fence);
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
    return delegate.release(uri, nodeId);
  }

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    return delegate.claim(uri, nodeId);
  }

  @Override
  public Map<AgentUri, Long> claimAll(Collection<AgentUri> uris, String nodeId) {
    return delegate.claimAll(uris, nodeId);
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    return delegate.claimIfAbsent(uri, nodeId);
  }

  @Override
  public boolean removeOwned(AgentUri uri, String nodeId) {
    return delegate.removeOwned(uri, nodeId);
  }

  @Override
  public boolean stillOwner(AgentUri uri, String nodeId, long epoch) {
    return delegate.stillOwner(uri, nodeId, epoch);
  }

  @Override
  public boolean setPaused(AgentUri uri, boolean paused) {
    return delegate.setPaused(uri, paused);
  }

  @Override
  public boolean pin(AgentUri uri, @Nullable String nodeName) {
    return delegate.pin(uri, nodeName);
  }

  @Override
  public SkippedRows skippedRows() {
    return delegate.skippedRows();
  }

  @Override
  public void upsert(AgentAssignment assignment) {
    delegate.upsert(assignment);
  }
}
