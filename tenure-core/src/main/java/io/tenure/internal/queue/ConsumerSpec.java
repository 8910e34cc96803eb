package io.tenure.internal.queue;

import io.tenure.BatchHandler;
import io.tenure.MessageHandler;
import io.tenure.Queue;

/**
 * A consumer registered on a node builder: which queue, how many handler calls at once, how many
 * messages per call, which handler.
 */
public record ConsumerSpec(Queue queue, int concurrency, int batchSize, BatchHandler handler) {
  /** One message per call. */
  public static ConsumerSpec single(Queue queue, int concurrency, MessageHandler handler) {
    return new ConsumerSpec(queue, concurrency, 1, deliveries -> handler.handle(deliveries.get(0)));
  }
}
