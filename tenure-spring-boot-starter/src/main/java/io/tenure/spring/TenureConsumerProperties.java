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

  /** A consumer's first wait before it claims again from an empty queue. */
  private Duration pollMin = Duration.ofMillis(20);

  /**
   * A consumer's longest wait on an empty queue, backed off to while it stays empty; at least
   * poll-min. A wake-up cuts the wait short: a lost one costs at most this.
   */
  private Duration pollMax = Duration.ofSeconds(1);

  /**
   * Whether this node takes wake-ups: a UDP socket (port chosen by the system) through which the
   * processes that enqueue tell its consumers to claim now instead of at their next poll.
   */
  private boolean wakeups = true;

  /**
   * The address of the node's wake-up socket, advertised to the other nodes; nodes on other hosts
   * need one they can reach.
   */
  private String wakeHost = "127.0.0.1";

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

  public Duration getPollMin() {
    return pollMin;
  }

  public void setPollMin(Duration pollMin) {
    this.pollMin = PropertyChecks.positive("tenure.consumer.poll-min", pollMin);
  }

  public Duration getPollMax() {
    return pollMax;
  }

  public void setPollMax(Duration pollMax) {
    this.pollMax = PropertyChecks.positive("tenure.consumer.poll-max", pollMax);
  }

  public boolean isWakeups() {
    return wakeups;
  }

  public void setWakeups(boolean wakeups) {
    this.wakeups = wakeups;
  }

  public String getWakeHost() {
    return wakeHost;
  }

  public void setWakeHost(String wakeHost) {
    if (wakeHost == null || wakeHost.isBlank()) {
      throw new IllegalArgumentException("tenure.consumer.wake-host must not be blank");
    }
    this.wakeHost = wakeHost;
  }
}
