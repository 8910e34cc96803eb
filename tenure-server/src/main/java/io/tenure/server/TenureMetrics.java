package io.tenure.server;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tenure.ConsumerStats;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.QueueStats;
import io.tenure.TenureNode;
import io.tenure.spi.Lease;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tenure's meters (docs/ADMIN-API.md#metrics) on any Micrometer registry. Store-wide gauges (tagged
 * {@code scope="store"}: every node reports the same values) read a snapshot that {@link
 * #refresh()} takes, on a scrape and every period of {@link #refreshEvery}, so a push registry sees
 * current values too; a refresh costs four store reads and one per paused or limited queue. Gauges
 * for a queue are registered the first time a refresh sees it. The node's consumer histograms are
 * the {@link ConsumerHistograms}.
 */
public final class TenureMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TenureMetrics.class);

  /** The tag that marks a gauge whose value is the store's, the same on every node. */
  static final String SCOPE = "scope";

  static final String STORE_SCOPE = "store";

  /** Runs a task every period until the returned handle is closed; tests fire it by hand. */
  @FunctionalInterface
  interface Schedule {
    AutoCloseable every(Duration period, Runnable task);
  }

  /** A daemon thread that runs the task at once and then every period. */
  static final Schedule DAEMON =
      (period, task) -> {
        ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().daemon().name("tenure-metrics-refresh").unstarted(r));
        timer.scheduleWithFixedDelay(task, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return timer::shutdownNow;
      };

  private final Store store;
  private volatile @Nullable TenureNode node;
  private final MeterRegistry registry;
  private volatile Map<String, QueueStats> queues = Map.of();
  private volatile Map<String, io.tenure.QueueControl> controls = Map.of();
  private volatile Map<NodeStatus, Long> nodes = Map.of();
  private volatile long leaderEpoch;
  private volatile boolean failing;
  private @Nullable AutoCloseable schedule;
  private final Set<String> registeredQueues = ConcurrentHashMap.newKeySet();
  private final Set<String> registeredConsumers = ConcurrentHashMap.newKeySet();
  private final ConsumerHistograms histograms;

  public TenureMetrics(Store store, @Nullable TenureNode node, MeterRegistry registry) {
    this.store = store;
    this.registry = registry;
    this.histograms = new ConsumerHistograms(registry, () -> consumers(this.node));
    for (NodeStatus status : NodeStatus.values()) {
      Gauge.builder("tenure_cluster_nodes", this, m -> m.nodes.getOrDefault(status, 0L))
          .tag("status", status.name())
          .tag(SCOPE, STORE_SCOPE)
          .description("Nodes in the membership table, per status")
          .register(registry);
    }
    Gauge.builder("tenure_cluster_leader_epoch", this, m -> m.leaderEpoch)
        .tag(SCOPE, STORE_SCOPE)
        .description(
            "The epoch in the lease table: the current leader's, or the last one's while none leads")
        .register(registry);
    // This process's reads, not a store-wide value: no scope tag, and a sum over nodes is
    // meaningful.
    FunctionCounter.builder(
            "tenure_agent_rows_skipped", store, s -> s.agents().skippedRows().count())
        .description(
            "Agent rows this process's reads left out because they cannot be read (each named in the log"
                + " and the cluster history): fix or delete them")
        .register(registry);
    FunctionCounter.builder(
            "tenure_event_rows_skipped", store, s -> s.events().skippedRows().count())
        .description(
            "Events this process's reads left out because their kind is unknown to this version (a"
                + " newer node's, during a rolling upgrade); each kind is named in the log once")
        .register(registry);
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
        .description("1 while this node holds the leader lease")
        .register(registry);
    Gauge.builder(
            "tenure_node_leader_epoch",
            node,
            n -> n.leaderFence().map(f -> (double) f.epoch()).orElse(0.0))
        .description(
            "The leader epoch this node holds, 0 when it does not lead (the cluster's: tenure_cluster_leader_epoch)")
        .register(registry);
    Gauge.builder("tenure_node_self_fenced", node, n -> n.isSelfFenced() ? 1 : 0)
        .description("1 while this node is self-fenced")
        .register(registry);
    Gauge.builder("tenure_node_agents_running", node, n -> n.runningAgents().size())
        .description("Agents running on this node")
        .register(registry);
    FunctionCounter.builder(
            "tenure_schedule_slots_fired_total", node, n -> n.scheduleStats().fired())
        .description("Schedule slots this node fired while it led (SPEC §10)")
        .register(registry);
    FunctionCounter.builder(
            "tenure_schedule_slots_skipped_total", node, n -> n.scheduleStats().skipped())
        .description("Schedule slots this node skipped by their missed-slot policy while it led")
        .register(registry);
    FunctionCounter.builder("tenure_queue_wakeups_sent_total", node, n -> n.wakeStats().sent())
        .description(
            "Wake-up datagrams this node's store sent after its enqueues or its leader's agent placements committed")
        .register(registry);
    FunctionCounter.builder(
            "tenure_queue_wakeups_received_total", node, n -> n.wakeStats().received())
        .description("Well-formed wake-ups this node read (docs/QUEUE.md, Wake-ups)")
        .register(registry);
    FunctionCounter.builder(
            "tenure_queue_wakeups_dropped_total", node, n -> n.wakeStats().dropped())
        .description("Datagrams this node's wake-up socket dropped as malformed")
        .register(registry);
    for (String stat : List.of("last", "max")) {
      Gauge.builder("tenure_schedule_fire_lag_seconds", node, n -> lag(n.scheduleStats(), stat))
          .tag("stat", stat)
          .description(
              "How late this node enqueued a fired slot's message after the slot, by the database"
                  + " clock: the last one, and the largest; 0 before the first")
          .register(registry);
    }
  }

  private static double lag(io.tenure.ScheduleStats stats, String stat) {
    java.time.Duration lag = stat.equals("last") ? stats.lastLag() : stats.maxLag();
    return lag == null ? 0 : lag.toNanos() / 1e9;
  }

  /**
   * Refreshes the snapshot every {@code period} on a daemon thread (the first at once), until
   * {@link #close()}.
   *
   * @throws IllegalStateException if it already refreshes on a schedule
   */
  public void refreshEvery(Duration period) {
    refreshEvery(period, DAEMON);
  }

  synchronized void refreshEvery(Duration period, Schedule on) {
    if (period == null || period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("the refresh period must be positive, got " + period);
    }
    if (schedule != null) {
      throw new IllegalStateException("these metrics already refresh on a schedule");
    }
    schedule =
        on.every(
            period,
            () -> {
              try {
                refresh();
              } catch (RuntimeException e) {
                // A task that throws is never run again: this must not end the schedule.
                LOG.warn("metrics: refresh failed: {}", e.toString());
              }
            });
  }

  /** Stops the scheduled refresh, if any; the meters stay registered. */
  @Override
  public synchronized void close() {
    if (schedule != null) {
      try {
        schedule.close();
      } catch (Exception e) {
        LOG.debug("metrics: stopping the refresh failed: {}", e.toString());
      }
      schedule = null;
    }
  }

  /** Reads the store snapshot the gauges report and registers meters for new queues. */
  public synchronized void refresh() {
    try {
      Map<String, QueueStats> byQueue = new HashMap<>();
      store.queues().stats().forEach(s -> byQueue.put(s.queue(), s));
      Map<NodeStatus, Long> byStatus = new EnumMap<>(NodeStatus.class);
      for (NodeInfo info : store.membership().read().nodes()) {
        byStatus.merge(info.status(), 1L, Long::sum);
      }
      Lease lease = store.leases().read();
      Map<String, io.tenure.QueueControl> byControl = new HashMap<>();
      store.queues().controls().list().forEach(c -> byControl.put(c.queue(), c));
      queues = byQueue;
      controls = byControl;
      nodes = byStatus;
      leaderEpoch = lease.epoch();
      if (failing) {
        failing = false;
        LOG.info("metrics: the store answers again");
      }
    } catch (RuntimeException e) {
      // Once per outage, not once per refresh: the node's own log says the rest.
      if (!failing) {
        failing = true;
        LOG.warn(
            "metrics: could not read the store; gauges keep their last values: {}", e.toString());
      }
    }
    queues.keySet().forEach(this::registerQueue);
    controls.keySet().forEach(this::registerQueue);
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
    queueGauge(
        "tenure_queue_oldest_age_seconds",
        queue,
        "Age of the oldest available pending message",
        s -> s.oldestPendingAge() == null ? 0 : s.oldestPendingAge().toMillis() / 1000.0);
    queueGauge("tenure_queue_cancelled", queue, "Cancelled messages kept", QueueStats::cancelled);
    controlGauge(
        "tenure_queue_paused", queue, "1 while the queue is paused", c -> c.paused() ? 1 : 0);
    controlGauge(
        "tenure_queue_limit_inflight",
        queue,
        "The queue's cluster-wide limit on messages in flight; 0 for none",
        c -> c.limits().maxInFlight());
  }

  private void controlGauge(
      String name,
      String queue,
      String description,
      ToDoubleFunction<io.tenure.QueueControl> value) {
    Gauge.builder(
            name,
            this,
            m -> {
              io.tenure.QueueControl control = m.controls.get(queue);
              return control == null ? 0 : value.applyAsDouble(control);
            })
        .tag("queue", queue)
        .tag(SCOPE, STORE_SCOPE)
        .description(description)
        .register(registry);
  }

  private void queueGauge(
      String name, String queue, String description, ToDoubleFunction<QueueStats> value) {
    Gauge.builder(
            name,
            this,
            m -> {
              QueueStats stats = m.queues.get(queue);
              return stats == null ? 0 : value.applyAsDouble(stats);
            })
        .tag("queue", queue)
        .tag(SCOPE, STORE_SCOPE)
        .description(description)
        .register(registry);
  }

  private void registerConsumer(String queue) {
    if (!registeredConsumers.add(queue)) {
      return;
    }
    consumerCounter(
        "tenure_queue_handled", queue, "Messages this node handled", ConsumerStats::handled);
    consumerCounter(
        "tenure_queue_retried",
        queue,
        "Failures this node resolved as retries",
        ConsumerStats::retried);
    consumerCounter(
        "tenure_queue_dead_lettered",
        queue,
        "Failures this node resolved as dead letters",
        ConsumerStats::deadLettered);
    consumerCounter(
        "tenure_queue_lost_claims",
        queue,
        "Resolves refused because the claim was lost",
        ConsumerStats::lostClaims);
    consumerCounter(
        "tenure_queue_unwritten",
        queue,
        "Outcomes whose write failed until the claim's lease was near its end; the message runs again",
        ConsumerStats::unwritten);
    consumerCounter(
        "tenure_queue_timed_out",
        queue,
        "Handlers that ran past their timeouts; their messages were resolved as the policy says",
        ConsumerStats::timedOut);
    histograms.registerQueue(queue);
  }

  private void consumerCounter(
      String name, String queue, String description, ToDoubleFunction<ConsumerStats> value) {
    TenureNode self = node;
    FunctionCounter.builder(
            name,
            self,
            n -> {
              double sum = 0;
              for (ConsumerStats stats : consumers(n)) {
                if (stats.queue().equals(queue)) {
                  sum += value.applyAsDouble(stats);
                }
              }
              return sum;
            })
        .tag("queue", queue)
        .description(description)
        .register(registry);
  }

  /**
   * The registry itself if it is a Prometheus one, else the first Prometheus one in a composite.
   */
  static @Nullable PrometheusMeterRegistry prometheusOf(MeterRegistry registry) {
    if (registry instanceof PrometheusMeterRegistry found) {
      return found;
    }
    if (registry instanceof CompositeMeterRegistry composite) {
      for (MeterRegistry member : composite.getRegistries()) {
        PrometheusMeterRegistry found = prometheusOf(member);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static List<ConsumerStats> consumers(@Nullable TenureNode node) {
    return node == null ? List.of() : node.consumerStats();
  }
}
