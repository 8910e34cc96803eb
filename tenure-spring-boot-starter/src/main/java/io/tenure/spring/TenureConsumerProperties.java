package io.tenure.spring;

import java.time.Duration;

/**
 * The {@code tenure.consumer.*} properties: the node's queue consumers (SPEC §6.5). A setter
 * refuses a value out of range at once, naming the property.
 */
public class TenureConsumerProperties {
  /** Highest concurrency of one consumer. */
  static final int MAX_CONCURRENCY = 1000;

  /**
   * Handlers of one queue that run at once on this node, 1 to 1000, for a handler method that sets
   * no concurrency of its own (and whose queue has no tenure.queues.NAME.concurrency). Each runs on
   * a virtual thread.
   */
  private int concurrency = 1;

  /**
   * How often this node's reclaim sweep returns messages whose claim lapsed (their node died) to
   * their queue. Nothing stays stranded longer than the lease plus this interval.
   */
  private Duration reclaimInterval = Duration.ofSeconds(5);

  /** Messages one reclaim sweep returns at most, at least 1. */
  private int reclaimPerTick = 1000;

  /**
   * How long a stopping node lets its running handlers finish before it abandons them (their claims
   * then lapse and other nodes take the messages).
   */
  private Duration drainDeadline = Duration.ofSeconds(10);

  public int getConcurrency() {
    return concurrency;
  }

  public void setConcurrency(int concurrency) {
    this.concurrency =
        PropertyChecks.between("tenure.consumer.concurrency", concurrency, 1, MAX_CONCURRENCY);
  }

  public Duration getReclaimInterval() {
    return reclaimInterval;
  }

  public void setReclaimInterval(Duration reclaimInterval) {
    this.reclaimInterval =
        PropertyChecks.positive("tenure.consumer.reclaim-interval", reclaimInterval);
  }

  public int getReclaimPerTick() {
    return reclaimPerTick;
  }

  public void setReclaimPerTick(int reclaimPerTick) {
    this.reclaimPerTick =
        PropertyChecks.between(
            "tenure.consumer.reclaim-per-tick", reclaimPerTick, 1, Integer.MAX_VALUE);
  }

  public Duration getDrainDeadline() {
    return drainDeadline;
  }

  public void setDrainDeadline(Duration drainDeadline) {
    this.drainDeadline = PropertyChecks.positive("tenure.consumer.drain-deadline", drainDeadline);
  }
}
