package io.tenure.inmemory;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.NodeInfo;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Agent assignments in memory, under the cluster tables' monitor like one database lock. */
final class InMemoryAgentStore implements AgentStore {
  private final InMemoryStore store;

  InMemoryAgentStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public List<AgentAssignment> readAll() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return List.copyOf(t.agents.values());
    }
  }

  @Override
  public Optional<AgentAssignment> read(AgentUri uri) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return Optional.ofNullable(t.agents.get(uri.toString()));
    }
  }

  @Override
  public List<AgentAssignment> readFor(String nodeId, java.util.Collection<AgentUri> alsoThese) {
    java.util.Set<String> wanted = new java.util.HashSet<>();
    alsoThese.forEach(uri -> wanted.add(uri.toString()));
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.agents.values().stream()
          .filter(
              row ->
                  nodeId.equals(row.owner())
                      || nodeId.equals(row.target())
                      || wanted.contains(row.uri().toString()))
          .toList();
    }
  }

  @Override
  public AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!InMemoryLeaseStore.isCurrent(t, fence, store.now())) {
        return AssignmentWrite.FENCED;
      }
      AgentAssignment row = t.agents.get(uri.toString());
      if (row == null && target == null) {
        return AssignmentWrite.NOT_ELIGIBLE;
      }
      ClusterTables.IssuedEpoch issued = t.agentEpochs.get(uri.toString());
      // A row deleted behind the store's back comes back as its epoch record has it.
      t.agents.put(
          uri.toString(),
          row == null
              ? new AgentAssignment(
                  uri,
                  issued == null ? null : issued.owner(),
                  target,
                  issued == null ? 0 : issued.epoch(),
                  false,
                  null)
              : new AgentAssignment(
                  uri, row.owner(), target, row.epoch(), row.paused(), row.pinnedTo()));
      return AssignmentWrite.APPLIED;
    }
  }

  @Override
  public AssignmentWrite placeAll(
      java.util.Map<AgentUri, @Nullable String> targets,
      java.util.Set<AgentUri> onlyIfUnowned,
      LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!InMemoryLeaseStore.isCurrent(t, fence, store.now())) {
        return AssignmentWrite.FENCED;
      }
      targets.forEach(
          (uri, target) -> {
            AgentAssignment row = t.agents.get(uri.toString());
            // Claimed since the leader's snapshot: moving it now would be an uncounted hand-off.
            if (row == null || row.owner() == null || !onlyIfUnowned.contains(uri)) {
              place(uri, target, fence);
            }
          });
    }
    // After the "commit", outside the lock, like a database's notification.
    if (!targets.isEmpty()) {
      t.placementListeners.forEach(listener -> listener.accept(fence.epoch()));
    }
    return AssignmentWrite.APPLIED;
  }

  @Override
  public Optional<AutoCloseable> listen(java.util.function.LongConsumer onPlaced) {
    ClusterTables t = store.clusterTables();
    t.placementListeners.add(onPlaced);
    return Optional.of(() -> t.placementListeners.remove(onPlaced));
  }

  @Override
  public AssignmentWrite retire(AgentUri uri, LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!InMemoryLeaseStore.isCurrent(t, fence, store.now())) {
        return AssignmentWrite.FENCED;
      }
      AgentAssignment row = t.agents.get(uri.toString());
      if (row == null || row.owner() != null) {
        return AssignmentWrite.NOT_ELIGIBLE;
      }
      t.agents.remove(uri.toString());
      return AssignmentWrite.APPLIED;
    }
  }

  @Override
  public AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      if (!InMemoryLeaseStore.isCurrent(t, fence, now)) {
        return AssignmentWrite.FENCED;
      }
      AgentAssignment row = t.agents.get(uri.toString());
      if (row == null
          || !deadOwner.equals(row.owner())
          || mayStillRun(t.nodes.get(deadOwner), now)) {
        return AssignmentWrite.NOT_ELIGIBLE;
      }
      t.agents.put(uri.toString(), withOwner(row, null, row.epoch()));
      letGo(t, uri, deadOwner);
      return AssignmentWrite.APPLIED;
    }
  }

  /** A node may still run its agents until its last heartbeat plus its self-fence deadline. */
  private static boolean mayStillRun(@Nullable NodeInfo node, Instant now) {
    return node != null && node.heartbeatAt().plus(node.selfFenceAfter()).isAfter(now);
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      boolean released = changeOwned(uri, nodeId, row -> withOwner(row, null, row.epoch()));
      if (released) {
        letGo(t, uri, nodeId);
      }
      return released;
    }
  }

  /** The epoch record stops naming {@code owner} as the holder once its row is freed. */
  private static void letGo(ClusterTables t, AgentUri uri, String owner) {
    ClusterTables.IssuedEpoch issued = t.agentEpochs.get(uri.toString());
    if (issued != null && owner.equals(issued.owner())) {
      t.agentEpochs.put(uri.toString(), new ClusterTables.IssuedEpoch(issued.epoch(), null));
    }
  }

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      AgentAssignment row = t.agents.get(uri.toString());
      if (row == null) {
        return OptionalLong.empty();
      }
      ClusterTables.IssuedEpoch issued = t.agentEpochs.get(uri.toString());
      if (nodeId.equals(row.owner())) {
        if (issued != null && nodeId.equals(issued.owner())) {
          // Its own epoch, also where the row's epoch was changed by hand.
          t.agents.put(uri.toString(), withOwner(row, nodeId, issued.epoch()));
          return OptionalLong.of(issued.epoch());
        }
        if (issued != null && issued.owner() != null) {
          // Owner written by hand while another node holds the epoch: back to that node, so a
          // two-phase hand-off moves it and the two never share an epoch.
          t.agents.put(uri.toString(), withOwner(row, issued.owner(), issued.epoch()));
          return OptionalLong.empty();
        }
        return OptionalLong.of(issue(t, row, issued, nodeId));
      }
      if (row.owner() != null || row.paused() || !nodeId.equals(row.target())) {
        return OptionalLong.empty();
      }
      return OptionalLong.of(issue(t, row, issued, nodeId));
    }
  }

  /** A new epoch, above the row's and above every epoch issued before. */
  private static long issue(
      ClusterTables t,
      AgentAssignment row,
      ClusterTables.@Nullable IssuedEpoch issued,
      String nodeId) {
    long epoch = Math.max(row.epoch(), issued == null ? 0 : issued.epoch()) + 1;
    t.agents.put(row.uri().toString(), withOwner(row, nodeId, epoch));
    t.agentEpochs.put(row.uri().toString(), new ClusterTables.IssuedEpoch(epoch, nodeId));
    return epoch;
  }

  @Override
  public java.util.Map<AgentUri, Long> claimAll(
      java.util.Collection<AgentUri> uris, String nodeId) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      java.util.Map<AgentUri, Long> owned = new java.util.LinkedHashMap<>();
      for (AgentUri uri : uris) {
        claim(uri, nodeId).ifPresent(epoch -> owned.put(uri, epoch));
      }
      return owned;
    }
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      AgentAssignment row = t.agents.get(uri.toString());
      ClusterTables.IssuedEpoch issued = t.agentEpochs.get(uri.toString());
      if (row != null) {
        boolean itsOwn =
            nodeId.equals(row.owner())
                && issued != null
                && nodeId.equals(issued.owner())
                && issued.epoch() == row.epoch();
        return itsOwn ? OptionalLong.of(row.epoch()) : OptionalLong.empty();
      }
      if (issued != null && issued.owner() != null && !nodeId.equals(issued.owner())) {
        // Another node holds the epoch: the row is its, and the caller's copy is the stale one.
        t.agents.put(
            uri.toString(),
            new AgentAssignment(uri, issued.owner(), issued.owner(), issued.epoch(), false, null));
        return OptionalLong.empty();
      }
      if (issued != null && nodeId.equals(issued.owner())) {
        t.agents.put(
            uri.toString(), new AgentAssignment(uri, nodeId, nodeId, issued.epoch(), false, null));
        return OptionalLong.of(issued.epoch());
      }
      return OptionalLong.of(
          issue(t, new AgentAssignment(uri, null, nodeId, 0, false, null), issued, nodeId));
    }
  }

  @Override
  public boolean removeOwned(AgentUri uri, String nodeId) {
    return changeOwned(uri, nodeId, row -> null);
  }

  @Override
  public boolean stillOwner(AgentUri uri, String nodeId, long epoch) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      AgentAssignment row = t.agents.get(uri.toString());
      return row != null && nodeId.equals(row.owner()) && row.epoch() == epoch;
    }
  }

  @Override
  public boolean setPaused(AgentUri uri, boolean paused) {
    return changeExisting(
        uri,
        row ->
            new AgentAssignment(
                uri, row.owner(), row.target(), row.epoch(), paused, row.pinnedTo()));
  }

  @Override
  public boolean pin(AgentUri uri, @Nullable String nodeName) {
    return changeExisting(
        uri,
        row ->
            new AgentAssignment(
                uri, row.owner(), row.target(), row.epoch(), row.paused(), nodeName));
  }

  @Override
  public io.tenure.spi.SkippedRows skippedRows() {
    return io.tenure.spi.SkippedRows.NONE;
  }

  @Override
  public void upsert(AgentAssignment assignment) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      t.agents.put(assignment.uri().toString(), Objects.requireNonNull(assignment));
    }
  }

  /** Owner-scoped: applies {@code change} (null deletes) only to a row {@code nodeId} owns. */
  private boolean changeOwned(AgentUri uri, String nodeId, UnaryOperator<AgentAssignment> change) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      AgentAssignment row = t.agents.get(uri.toString());
      return row != null && nodeId.equals(row.owner()) && apply(t, uri, row, change);
    }
  }

  private boolean changeExisting(AgentUri uri, UnaryOperator<AgentAssignment> change) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      AgentAssignment row = t.agents.get(uri.toString());
      return row != null && apply(t, uri, row, change);
    }
  }

  private static boolean apply(
      ClusterTables t, AgentUri uri, AgentAssignment row, UnaryOperator<AgentAssignment> change) {
    AgentAssignment changed = change.apply(row);
    if (changed == null) {
      t.agents.remove(uri.toString());
    } else {
      t.agents.put(uri.toString(), changed);
    }
    return true;
  }

  private static AgentAssignment withOwner(
      AgentAssignment row, @Nullable String owner, long epoch) {
    return new AgentAssignment(row.uri(), owner, row.target(), epoch, row.paused(), row.pinnedTo());
  }
}
