package io.tenure.spring;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tenure.ConsumerStats;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.QueueStats;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Tenure's meters on the application's registry (docs/SPRING.md#meters). Every value is read when
 * the registry asks, never from a snapshot taken at the last scrape: the node's through its
 * methods, the handled and failed counts as counters over the node's own counters, and the
 * store-wide gauges (tagged {@code scope=store}: every node reports the same) from one store read
 * shared by all of them and at most {@link #STORE_READ_MAX_AGE} old. Queue meters are registered
 * for every queue of {@link TenureQueues}, as it is opened.
 */
public final class TenureMeterBinder implements MeterBinder {
  /** How old the store-wide values may be: one read a second at most, however many gauges. */
  public static final Duration STORE_READ_MAX_AGE = Duration.ofSeconds(1);

  private static final String SCOPE = "scope";
  private static final String STORE = "store";

  private final TenureQueues queues;
  private final Supplier<Optional<TenureNode>> node;
  private final StoreReading<Map<String, QueueStats>> queueStats;
  private final StoreReading<List<NodeInfo>> members;
  private volatile @Nullable TenureNode last;

  /**
   * @param node this application's node while it runs
   * @param ticker the clock that ages the store reads
   * @param storeReadMaxAge how old a store-wide value may be
   */
  public TenureMeterBinder(
      Tenure tenure,
      TenureQueues queues,
      Supplier<Optional<TenureNode>> node,
      Ticker ticker,
      Duration storeReadMaxAge) {
    this.queues = queues;
    this.node = node;
    this.queueStats =
        new StoreReading<>(
            () ->
                tenure.admin().queues().stream()
                    .collect(Collectors.toMap(QueueStats::queue, Function.identity())),
            ticker,
            storeReadMaxAge);
    this.members = new StoreReading<>(() -> tenure.admin().nodes(), ticker, storeReadMaxAge);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    nodeGauge(registry, "tenure.node.leader", "1 while this node leads", n -> n.isLeader() ? 1 : 0);
    nodeGauge(
        registry,
        "tenure.node.leader.epoch",
        "The leader epoch this node holds; 0 when it does not lead",
        n -> n.leaderFence().map(f -> (double) f.epoch()).orElse(0.0));
    nodeGauge(
        registry,
        "tenure.node.self.fenced",
        "1 while this node is self-fenced",
        n -> n.isSelfFenced() ? 1 : 0);
    nodeGauge(
        registry,
        "tenure.node.agents.running",
        "Agents running on this node",
        n -> n.runningAgents().size());
    nodeCounter(
        registry,
        "tenure.schedule.slots.fired",
        "Schedule slots this node fired while it led",
        n -> n.scheduleStats().fired());
    nodeCounter(
        registry,
        "tenure.schedule.slots.skipped",
        "Schedule slots this node skipped by their missed-slot policies while it led",
        n -> n.scheduleStats().skipped());
    nodeCounter(
        registry,
        "tenure.queue.wakeups.sent",
        "Wake-up datagrams this node's store sent after its enqueues or its leader's agent placements committed",
        n -> n.wakeStats().sent());
    nodeCounter(
        registry,
        "tenure.queue.wakeups.received",
        "Well-formed wake-ups this node read",
        n -> n.wakeStats().received());
    nodeCounter(
        registry,
        "tenure.queue.wakeups.dropped",
        "Datagrams this node's wake-up socket dropped as malformed",
        n -> n.wakeStats().dropped());
    for (NodeStatus status : NodeStatus.values()) {
      Gauge.builder(
              "tenure.cluster.nodes",
              this,
              m -> m.count(m.members.get(), info -> info.status() == status))
          .tag("status", status.name())
          .tag(SCOPE, STORE)
          .description("Nodes in the membership table, per status")
          .register(registry);
    }
    queues.forEachQueue(queue -> bindQueue(registry, queue.name()));
  }

  private void bindQueue(MeterRegistry registry, String queue) {
    queueGauge(registry, "tenure.queue.depth", queue, "Pending messages", QueueStats::pending);
    queueGauge(registry, "tenure.queue.inflight", queue, "Claimed messages", QueueStats::inflight);
    queueGauge(registry, "tenure.queue.dead", queue, "Dead letters", QueueStats::dead);
    queueGauge(
        registry,
        "tenure.queue.cancelled",
        queue,
        "Cancelled messages kept",
        QueueStats::cancelled);
    Gauge.builder("tenure.queue.oldest.age", this, m -> m.oldestAge(queue))
        .tag("queue", queue)
        .tag(SCOPE, STORE)
        .baseUnit("seconds")
        .description("How long the oldest available pending message has waited")
        .register(registry);
    consumerCounter(
        registry, "tenure.queue.handled", queue, "Messages this node handled", s -> s.handled());
    consumerCounter(
        registry,
        "tenure.queue.failed",
        queue,
        "Handler failures on this node: retried plus dead-lettered",
        s -> s.retried() + s.deadLettered());
    consumerCounter(
        registry,
        "tenure.queue.retried",
        queue,
        "Failures this node resolved as retries",
        s -> s.retried());
    consumerCounter(
        registry,
        "tenure.queue.dead.lettered",
        queue,
        "Failures this node resolved as dead letters",
        s -> s.deadLettered());
    consumerCounter(
        registry,
        "tenure.queue.timed.out",
        queue,
        "Messages taken back from handlers that ran past their timeouts",
        s -> s.timedOut());
    consumerCounter(
        registry,
        "tenure.queue.lost.claims",
        queue,
        "Outcomes refused because the claim was lost",
        s -> s.lostClaims());
    consumerCounter(
        registry,
        "tenure.queue.unwritten",
        queue,
        "Outcomes whose write was given up; the message runs again",
        s -> s.unwritten());
  }

  /** The running node, else the one that ran last, so a counter never goes back to zero. */
  private @Nullable TenureNode node() {
    Optional<TenureNode> running = node.get();
    running.ifPresent(n -> last = n);
    return running.orElse(last);
  }

  private void nodeGauge(
      MeterRegistry registry, String name, String description, ToDoubleFunction<TenureNode> value) {
    Gauge.builder(
            name,
            this,
            m -> {
              TenureNode n = m.node.get().orElse(null);
              return n == null ? 0 : value.applyAsDouble(n);
            })
        .description(description)
        .register(registry);
  }

  private void nodeCounter(
      MeterRegistry registry, String name, String description, ToDoubleFunction<TenureNode> value) {
    FunctionCounter.builder(
            name,
            this,
            m -> {
              TenureNode n = m.node();
              return n == null ? 0 : value.applyAsDouble(n);
            })
        .description(description)
        .register(registry);
  }

  private void queueGauge(
      MeterRegistry registry,
      String name,
      String queue,
      String description,
      ToDoubleFunction<QueueStats> value) {
    Gauge.builder(
            name,
            this,
            m -> {
              Map<String, QueueStats> all = m.queueStats.get();
              if (all == null) {
                return Double.NaN;
              }
              QueueStats stats = all.get(queue);
              // A queue with no messages has no row in the stats.
              return stats == null ? 0 : value.applyAsDouble(stats);
            })
        .tag("queue", queue)
        .tag(SCOPE, STORE)
        .description(description)
        .register(registry);
  }

  private double oldestAge(String queue) {
    Map<String, QueueStats> all = queueStats.get();
    if (all == null) {
      return Double.NaN;
    }
    QueueStats stats = all.get(queue);
    return stats == null || stats.oldestPendingAge() == null
        ? 0
        : stats.oldestPendingAge().toNanos() / 1e9;
  }

  private void consumerCounter(
      MeterRegistry registry,
      String name,
      String queue,
      String description,
      ToDoubleFunction<ConsumerStats> value) {
    FunctionCounter.builder(
            name,
            this,
            m -> {
              TenureNode n = m.node();
              if (n == null) {
                return 0;
              }
              double sum = 0;
              for (ConsumerStats stats : n.consumerStats()) {
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

  private double count(
      @Nullable List<NodeInfo> infos, java.util.function.Predicate<NodeInfo> which) {
    return infos == null ? Double.NaN : infos.stream().filter(which).count();
  }
}
