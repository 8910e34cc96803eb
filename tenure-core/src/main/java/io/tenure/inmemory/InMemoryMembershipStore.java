package io.tenure.inmemory;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Membership in memory: every method holds the tables' monitor, as one transaction would. */
final class InMemoryMembershipStore implements MembershipStore {
  private static final Set<NodeStatus> LIVE = Set.of(NodeStatus.JOINING, NodeStatus.ACTIVE);

  private final InMemoryStore store;

  InMemoryMembershipStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public MembershipView read() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return new MembershipView(t.version, new ArrayList<>(t.nodes.values()), store.now());
    }
  }

  @Override
  public long version() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.version;
    }
  }

  @Override
  public MembershipWrite join(NewNode node, long expectedVersion) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (t.version != expectedVersion) {
        return MembershipWrite.STALE_VERSION;
      }
      if (t.nodes.containsKey(node.nodeId())) {
        return MembershipWrite.DUPLICATE_NODE;
      }
      Instant now = store.now();
      t.nodes.put(
          node.nodeId(),
          new NodeInfo(
              node.nodeId(),
              node.name(),
              node.address(),
              node.capabilities(),
              NodeStatus.JOINING,
              now,
              now,
              node.selfFenceAfter(),
              1));
      t.version++;
      return MembershipWrite.APPLIED;
    }
  }

  @Override
  public MembershipWrite changeStatus(String nodeId, NodeStatus to, long expectedVersion) {
    Set<NodeStatus> from = MembershipStore.selfChangeSources(to);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (t.version != expectedVersion) {
        return MembershipWrite.STALE_VERSION;
      }
      NodeInfo row = t.nodes.get(nodeId);
      if (row == null || !from.contains(row.status())) {
        return MembershipWrite.NOT_ELIGIBLE;
      }
      t.nodes.put(nodeId, withStatus(row, to));
      t.version++;
      return MembershipWrite.APPLIED;
    }
  }

  @Override
  public MembershipWrite remove(String nodeId, long expectedVersion) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (t.version != expectedVersion) {
        return MembershipWrite.STALE_VERSION;
      }
      if (t.nodes.remove(nodeId) == null) {
        return MembershipWrite.NOT_ELIGIBLE;
      }
      t.version++;
      return MembershipWrite.APPLIED;
    }
  }

  // The monitor is the lock: the version read inside it cannot change before the write.
  @Override
  public MembershipWrite joinQueued(NewNode node) {
    synchronized (store.clusterTables()) {
      return join(node, store.clusterTables().version);
    }
  }

  @Override
  public MembershipWrite changeStatusQueued(String nodeId, NodeStatus to) {
    synchronized (store.clusterTables()) {
      return changeStatus(nodeId, to, store.clusterTables().version);
    }
  }

  @Override
  public MembershipWrite removeQueued(String nodeId) {
    synchronized (store.clusterTables()) {
      return remove(nodeId, store.clusterTables().version);
    }
  }

  @Override
  public boolean heartbeat(String nodeId) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      NodeInfo row = t.nodes.get(nodeId);
      if (row == null || row.status() == NodeStatus.DEAD) {
        return false;
      }
      t.nodes.put(
          nodeId,
          new NodeInfo(
              row.nodeId(),
              row.name(),
              row.address(),
              row.capabilities(),
              row.status(),
              row.startedAt(),
              store.now(),
              row.selfFenceAfter(),
              row.rowVersion() + 1));
      return true;
    }
  }

  @Override
  public List<NodeInfo> findStale(Duration staleAfter) {
    Instant cutoff = store.now().minus(staleAfter);
    return select(
        row -> LIVE.contains(row.status()) && row.heartbeatAt().isBefore(cutoff),
        Integer.MAX_VALUE);
  }

  @Override
  public MembershipWrite declareDead(
      String nodeId, Duration staleAfter, long expectedVersion, LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!InMemoryLeaseStore.isCurrent(t, fence, store.now())) {
        return MembershipWrite.FENCED;
      }
      if (t.version != expectedVersion) {
        return MembershipWrite.STALE_VERSION;
      }
      NodeInfo row = t.nodes.get(nodeId);
      Instant cutoff = store.now().minus(staleAfter);
      if (row == null
          || nodeId.equals(fence.nodeId())
          || !LIVE.contains(row.status())
          || !row.heartbeatAt().isBefore(cutoff)) {
        return MembershipWrite.NOT_ELIGIBLE;
      }
      t.nodes.put(nodeId, withStatus(row, NodeStatus.DEAD));
      t.version++;
      return MembershipWrite.APPLIED;
    }
  }

  @Override
  public List<NodeInfo> findDefunct(Duration olderThan, int limit) {
    Instant cutoff = store.now().minus(olderThan);
    return select(
        row -> row.status() != NodeStatus.ACTIVE && row.heartbeatAt().isBefore(cutoff), limit);
  }

  @Override
  public int deleteDefunct(List<NodeInfo> rows, Duration olderThan, LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      if (!InMemoryLeaseStore.isCurrent(t, fence, now)) {
        return 0;
      }
      Instant cutoff = now.minus(olderThan);
      int deleted = 0;
      for (NodeInfo read : rows) {
        NodeInfo current = t.nodes.get(read.nodeId());
        if (current != null
            && current.rowVersion() == read.rowVersion()
            && current.status() != NodeStatus.ACTIVE
            && current.heartbeatAt().isBefore(cutoff)) {
          t.nodes.remove(read.nodeId());
          deleted++;
        }
      }
      return deleted;
    }
  }

  private List<NodeInfo> select(Predicate<NodeInfo> filter, int limit) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.nodes.values().stream()
          .filter(filter)
          .sorted(Comparator.comparing(NodeInfo::heartbeatAt))
          .limit(limit)
          .toList();
    }
  }

  private static NodeInfo withStatus(NodeInfo row, NodeStatus status) {
    return new NodeInfo(
        row.nodeId(),
        row.name(),
        row.address(),
        row.capabilities(),
        status,
        row.startedAt(),
        row.heartbeatAt(),
        row.selfFenceAfter(),
        row.rowVersion() + 1);
  }
}
