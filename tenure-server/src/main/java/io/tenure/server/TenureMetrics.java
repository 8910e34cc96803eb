package io.tenure.server;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tenure.ConsumerStats;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.QueueStats;
import io.tenure.TenureNode;
import io.tenure.spi.Store;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tenure's meters (docs/ADMIN-API.md#metrics) on a Micrometer registry. Store-wide gauges read a
 * snapshot that {@link #refresh()} takes once per scrape, so a scrape costs two store reads
 * whatever the number of queues; gauges for a queue are registered the first time it is seen.
 */
public final class TenureMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(TenureMetrics.class);

  private final Store store;
  private volatile @Nullable TenureNode node;
  private final MeterRegistry registry;
  private volatile Map<String, QueueStats> queues = Map.of();
  private volatile Map<NodeStatus, Long> nodes = Map.of();
  private final Set<String> registeredQueues = ConcurrentHashMap.newKeySet();
  private final Set<String> registeredConsumers = ConcurrentHashMap.newKeySet();

  public TenureMetrics(Store store, @Nullable TenureNode node, MeterRegistry registry) {
    this.store = store;
    this.registry = registry;
    for (NodeStatus status : NodeStatus.values()) {
      Gauge.builder("tenure_cluster_nodes", this, m -> m.nodes.getOrDefault(status, 0L))
          .tag("status", status.name())
          .description("Nodes in the membership table, per status")
          .register(registry);
    }
    if (node != null) {
      attach(node);
    }
  }

  /** Adds the node's own meters, for metrics created before their node. */
  public synchronized void attach(TenureNode node) {
    if (this.node != null && this.node != node) {
      throw new IllegalStateException("these metrics already belong to node " + this.node.nodeId());
    }
    this.node = node;
    Gauge.builder("tenure_node_leader", node, n -> n.isLeader() ? 1 : 0)
        .description("1 while this node holds the leader lease").register(registry);
    Gauge.builder("tenure_node_leader_epoch", node, n -> n.leaderFence().map(f -> (double) f.epoch()).orElse(0.0))
        .description("The leader epoch this node holds, 0 when not leader").register(registry);
    Gauge.builder("tenure_node_self_fenced", node, n -> n.isSelfFenced() ? 1 : 0)
        .description("1 while this node is self-fenced").register(registry);
    Gauge.builder("tenure_node_agents_running", node, n -> n.runningAgents().size())
        .description("Agents running on this node").register(registry);
  }

  /** Reads the store snapshot the gauges report and registers meters for new queues. */
  public void refresh() {
    try {
      Map<String, QueueStats> byQueue = new HashMap<>();
      store.queues().stats().forEach(s -> byQueue.put(s.queue(), s));
      Map<NodeStatus, Long> byStatus = new EnumMap<>(NodeStatus.class);
      for (NodeInfo info : store.membership().read().nodes()) {
        byStatus.merge(info.status(), 1L, Long::sum);
      }
      queues = byQueue;
      nodes = byStatus;
    } catch (RuntimeException e) {
      LOG.warn("metrics: could not read the store: {}", e.toString());
    }
    queues.keySet().forEach(this::registerQueue);
    TenureNode self = node;
    if (self != null) {
      self.consumerStats().forEach(c -> registerConsumer(c.queue()));
    }
  }

  private void registerQueue(String queue) {
    if (!registeredQueues.add(queue)) {
      return;
    }
    queueGauge("tenure_queue_depth", queue, "Pending messages", QueueStats::pending);
    queueGauge("tenure_queue_inflight", queue, "Claimed messages", QueueStats::inflight);
    queueGauge("tenure_queue_dead", queue, "Dead letters", QueueStats::dead);
    queueGauge("tenure_queue_oldest_age_seconds", queue, "Age of the oldest available pending message",
        s -> s.oldestPendingAge() == null ? 0 : s.oldestPendingAge().toMillis() / 1000.0);
  }

  private void queueGauge(String name, String queue, String description, ToDoubleFunction<QueueStats> value) {
    Gauge.builder(name, this, m -> {
          QueueStats stats = m.queues.get(queue);
          return stats == null ? 0 : value.applyAsDouble(stats);
        })
        .tag("queue", queue).description(description).register(registry);
  }

  private void registerConsumer(String queue) {
    if (!registeredConsumers.add(queue)) {
      return;
    }
    consumerCounter("tenure_queue_handled", queue, "Messages this node handled", ConsumerStats::handled);
    consumerCounter("tenure_queue_retried", queue, "Failures this node resolved as retries", ConsumerStats::retried);
    consumerCounter("tenure_queue_dead_lettered", queue, "Failures this node resolved as dead letters",
        ConsumerStats::deadLettered);
    consumerCounter("tenure_queue_lost_claims", queue, "Resolves refused because the claim was lost",
        ConsumerStats::lostClaims);
    consumerCounter("tenure_queue_unwritten", queue,
        "Outcomes whose write failed until the claim's lease was near its end; the message runs again",
        ConsumerStats::unwritten);
  }

  private void consumerCounter(String name, String queue, String description, ToDoubleFunction<ConsumerStats> value) {
    TenureNode self = node;
    FunctionCounter.builder(name, self, n -> {
          double sum = 0;
          for (ConsumerStats stats : consumers(n)) {
            if (stats.queue().equals(queue)) {
              sum += value.applyAsDouble(stats);
            }
          }
          return sum;
        })
        .tag("queue", queue).description(description).register(registry);
  }

  private static List<ConsumerStats> consumers(@Nullable TenureNode node) {
    return node == null ? List.of() : node.consumerStats();
  }
}
