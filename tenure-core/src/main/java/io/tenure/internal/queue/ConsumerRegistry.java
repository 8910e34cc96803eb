package io.tenure.internal.queue;

import io.tenure.BatchHandler;
import io.tenure.MessageHandler;
import io.tenure.Queue;
import io.tenure.spi.QueueStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumers registered on one node builder, shared and exclusive: at most one per queue, each
 * refused at once if malformed.
 */
public final class ConsumerRegistry {
  private final Map<String, ConsumerSpec> shared = new LinkedHashMap<>();
  private final Map<String, ConsumerSpec> exclusive = new LinkedHashMap<>();

  /**
   * @throws IllegalArgumentException if an argument is null or out of range, or the queue already
   *     has a consumer
   */
  public void single(Queue queue, int concurrency, MessageHandler handler) {
    if (queue == null || handler == null) {
      throw new IllegalArgumentException("consumer queue and handler must not be null");
    }
    checkConcurrency(concurrency);
    add(shared, ConsumerSpec.single(queue, concurrency, handler));
  }

  /**
   * @throws IllegalArgumentException if an argument is null or out of range, or the queue already
   *     has a consumer
   */
  public void batch(Queue queue, int concurrency, int batchSize, BatchHandler handler) {
    if (queue == null || handler == null) {
      throw new IllegalArgumentException("consumer queue and handler must not be null");
    }
    checkConcurrency(concurrency);
    if (batchSize < 1 || batchSize > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "batch size must be 1 to " + QueueStore.MAX_BATCH + ", got " + batchSize);
    }
    add(shared, new ConsumerSpec(queue, concurrency, batchSize, handler));
  }

  /**
   * @throws IllegalArgumentException if an argument is null or the queue already has a consumer
   */
  public void exclusive(Queue queue, MessageHandler handler) {
    if (queue == null || handler == null) {
      throw new IllegalArgumentException("consumer queue and handler must not be null");
    }
    add(exclusive, ConsumerSpec.single(queue, 1, handler));
  }

  /**
   * @return the shared consumers, in the order they were registered
   */
  public List<ConsumerSpec> shared() {
    return List.copyOf(shared.values());
  }

  /**
   * @return the exclusive consumers by queue name
   */
  public Map<String, ConsumerSpec> exclusive() {
    return Map.copyOf(exclusive);
  }

  private void add(Map<String, ConsumerSpec> kind, ConsumerSpec spec) {
    String queue = spec.queue().name();
    if (shared.containsKey(queue) || exclusive.containsKey(queue)) {
      throw new IllegalArgumentException(
          "queue '" + queue + "' already has a consumer on this node");
    }
    kind.put(queue, spec);
  }

  private static void checkConcurrency(int concurrency) {
    if (concurrency < 1 || concurrency > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "consumer concurrency must be 1 to " + QueueStore.MAX_BATCH + ", got " + concurrency);
    }
  }
}
