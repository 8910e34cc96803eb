package io.tenure.internal.queue;

import java.time.Duration;
import java.util.List;

/** A node's queue work: its consumers and its reclaim sweep. */
public record QueueSettings(
    List<ConsumerSpec> consumers,
    Duration reclaimInterval,
    int reclaimPerTick,
    Duration drainDeadline) {
  public QueueSettings {
    consumers = List.copyOf(consumers);
  }
}
