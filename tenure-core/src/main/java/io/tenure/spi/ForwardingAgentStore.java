package io.tenure.spi;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * An agent store that passes every call to another: the base of a decorator, which overrides only
 * the calls it changes (a wake-up after a placement, a fault in a test).
 */
public abstract class ForwardingAgentStore implements AgentStore {
  private final AgentStore delegate;

  /**
   * @param delegate the store every call goes to
   * @throws IllegalArgumentException if delegate is null
   */
  protected ForwardingAgentStore(AgentStore delegate) {
    if (delegate == null) {
      throw new IllegalArgumentException("delegate must not be null");
    }
    this.delegate = delegate;
  }

  /**
   * @return the store every call goes to
   */
  protected final AgentStore delegate() {
    return delegate;
  }

  @Override
  public AssignmentWrite placeAll(
      Map<AgentUri, @Nullable String> targets, Set<AgentUri> onlyIfUnowned, LeaderFence fence) {
    return delegate.placeAll(targets, onlyIfUnowned, fence);
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
