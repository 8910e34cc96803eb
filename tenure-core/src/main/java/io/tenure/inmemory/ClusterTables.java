package io.tenure.inmemory;

import io.tenure.ClusterEvent;
import io.tenure.NodeInfo;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory membership, lease, event, agent and queue tables of one prefix. Guarded by its own
 * monitor.
 */
final class ClusterTables {
  long version;
  final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
  @Nullable String leaseHolder;
  long leaseEpoch;
  Instant leaseExpiresAt = Instant.EPOCH;
  @Nullable Instant leaseAcquiredAt;

  /** The epoch at which the holder recorded holding the session lock; 0 for none. */
  long leaseLockEpoch;

  final Deque<ClusterEvent> events = new ArrayDeque<>();
  final java.util.TreeMap<String, io.tenure.AgentAssignment> agents = new java.util.TreeMap<>();

  /**
   * Per agent, the last ownership epoch issued and the node holding it: outlives the agent's row.
   */
  final Map<String, IssuedEpoch> agentEpochs = new java.util.HashMap<>();

  long nextEventId = 1;
  final QueueTable messages = new QueueTable();

  /** Queue pause and limits by queue name, and the rate-limited queues' recent claims. */
  final InMemoryQueueControls.Table controls = new InMemoryQueueControls.Table();

  /** Enqueue listeners of this namespace, called after an enqueue, outside the lock. */
  final java.util.List<java.util.function.Consumer<String>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Placement listeners of this namespace, called after a placement, outside the lock. */
  final java.util.List<java.util.function.LongConsumer> placementListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * The last ownership epoch issued for an agent, and the node it was issued to while that node
   * holds it (null once released).
   */
  record IssuedEpoch(long epoch, @Nullable String owner) {}

  /** Schedules by name (SPEC §10). */
  final java.util.TreeMap<String, InMemoryScheduleStore.ScheduleRow> schedules =
      new java.util.TreeMap<>();

  /** Named locks by name (SPEC §11); a row is never deleted, so its token only grows. */
  final java.util.TreeMap<String, LockRow> locks = new java.util.TreeMap<>();

  record LockRow(
      String name,
      String holder,
      @Nullable String owner,
      long token,
      Instant acquiredAt,
      Instant expiresAt) {
    LockRow withExpiry(@Nullable String owner, Instant expiresAt) {
      return new LockRow(name, holder, owner, token, acquiredAt, expiresAt);
    }

    io.tenure.LockInfo info(Instant now) {
      return new io.tenure.LockInfo(name, holder, owner, token, acquiredAt, expiresAt, now);
    }
  }

  void clear() {
    version = 0;
    nodes.clear();
    leaseHolder = null;
    leaseEpoch = 0;
    leaseExpiresAt = Instant.EPOCH;
    leaseAcquiredAt = null;
    leaseLockEpoch = 0;
    events.clear();
    agents.clear();
    agentEpochs.clear();
    messages.clear();
    controls.clear();
    locks.clear();
    schedules.clear();
  }
}
