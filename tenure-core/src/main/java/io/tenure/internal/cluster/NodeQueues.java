package io.tenure.internal.cluster;

import io.tenure.ConsumerStats;
import io.tenure.QueuePolicy;
import io.tenure.QueueSettings;
import io.tenure.Ticker;
import io.tenure.WakeStats;
import io.tenure.internal.queue.ConsumerSpec;
import io.tenure.internal.queue.OutcomeRule;
import io.tenure.internal.queue.QueueConsumer;
import io.tenure.internal.wake.WakeHost;
import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's queue work: its shared consumers (two claimers, a dispatcher and two resolvers each,
 * handlers on virtual threads), the wake-ups that speed them up, and the reclaim and retention
 * sweep. Exclusive queues are not here: they run as agents ({@link
 * io.tenure.internal.queue.ExclusiveQueues}).
 */
final class NodeQueues {
  private static final Logger LOG = LoggerFactory.getLogger(NodeQueues.class);

  private final QueueStore store;
  private final QueueSettings settings;
  private final List<ConsumerSpec> specs;
  private final List<QueueConsumer> consumers;
  private final Supplier<String> nodeId;
  private final Ticker ticker;
  private final @Nullable WakeHost wake;
  private final LongSupplier sent;
  private volatile Optional<AutoCloseable> listening = Optional.empty();

  /**
   * @param wake the node's wake-up socket, or null if it takes none
   * @param sent how many wake-ups the node's store sent
   */
  NodeQueues(
      QueueStore store,
      QueueSettings settings,
      List<ConsumerSpec> specs,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      Ticker ticker,
      @Nullable WakeHost wake,
      LongSupplier sent) {
    this.store = store;
    this.wake = wake;
    this.sent = sent;
    this.settings = settings;
    this.specs = List.copyOf(specs);
    this.nodeId = nodeId;
    this.ticker = ticker;
    this.consumers =
        this.specs.stream()
            .map(
                spec ->
                    new QueueConsumer(
                        store,
                        spec,
                        nodeId,
                        mayClaim,
                        ticker,
                        settings.pollMin(),
                        settings.pollMax()))
            .toList();
  }

  /**
   * Starts the consumers and their wake-ups: the node's wake-up socket, and the store's
   * notifications where it has them (PostgreSQL NOTIFY).
   */
  void start() {
    consumers.forEach(QueueConsumer::start);
    // Consumers poll either way; a wake-up only shortens the wait.
    Map<String, QueueConsumer> byQueue = new HashMap<>();
    consumers.forEach(c -> byQueue.put(c.queueName(), c));
    if (wake != null) {
      wake.start(
          nodeId.get(),
          queue -> {
            QueueConsumer consumer = byQueue.get(queue);
            if (consumer != null) {
              consumer.wake();
            }
            return consumer != null;
          });
    }
    if (!consumers.isEmpty()) {
      listening =
          store.listen(
              queue -> {
                QueueConsumer consumer = byQueue.get(queue);
                if (consumer != null) {
                  consumer.wake();
                }
              });
    }
  }

  /**
   * Every node sweeps: the sweep is one indexed statement, and no queue waits for a leader.
   * Retention (SPEC §6.7) runs on the leader alone, for the queues whose policy this node knows;
   * leadership is asked after the reclaim, which may have taken a while.
   */
  void reclaimTick(BooleanSupplier leader) {
    int reclaimed = store.reclaimExpired(settings.reclaimPerTick(), OutcomeRule::onLeaseExpired);
    if (reclaimed > 0) {
      LOG.info("node {}: reclaimed {} messages whose lease expired", nodeId.get(), reclaimed);
    }
    if (leader.getAsBoolean()) {
      for (ConsumerSpec spec : specs) {
        QueuePolicy policy = spec.queue().policy();
        store.deleteExpired(
            spec.queue().name(),
            policy.retainDone(),
            policy.retainDead(),
            settings.reclaimPerTick());
      }
    }
  }

  /**
   * @return the numbers of each consumer
   */
  List<ConsumerStats> stats() {
    return consumers.stream().map(QueueConsumer::stats).toList();
  }

  /**
   * @return the node's wake-up numbers
   */
  WakeStats wakeStats() {
    return wake == null ? WakeStats.off(sent.getAsLong()) : wake.stats(sent);
  }

  /** Ends the wake-ups; the consumers stop with {@link #close()}. Idempotent. */
  void stopListening() {
    listening.ifPresent(DefaultTenureNode::closeQuietly);
    if (wake != null) {
      wake.close();
    }
  }

  /**
   * Stops claiming, lets handlers finish, releases what never started (SPEC §6.6), every consumer
   * at once, and waits at most {@link QueueConsumer#closeBound}: shutdown never waits without
   * bound. On platform threads: handlers that spin without blocking can hold every carrier thread,
   * and a virtual thread would then never run.
   */
  void close() {
    Duration drain = settings.drainDeadline();
    List<Thread> closing =
        consumers.stream()
            .map(
                c ->
                    Thread.ofPlatform()
                        .daemon()
                        .name("tenure-close-" + c.queueName())
                        .start(() -> c.close(drain)))
            .toList();
    long end = ticker.read() + QueueConsumer.closeBound(drain).toNanos();
    for (Thread thread : closing) {
      try {
        if (!thread.join(Duration.ofNanos(Math.max(0, end - ticker.read())))) {
          LOG.warn(
              "node {}: closing the consumer on {} took longer than {}; abandoned",
              nodeId.get(),
              thread.getName(),
              QueueConsumer.closeBound(drain));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
