package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * A queue's cluster-wide limits (SPEC §12.1), enforced in the claim's transaction on every node:
 * never by a node's own counters, so they hold whatever the number of nodes and through crashes (a
 * crashed node's messages count until the reclaim sweep takes them back). Setting limits changes no
 * message: a queue above a new limit claims nothing until it is below it.
 *
 * <pre>{@code
 * tenure.queue("emails", policy).limit(QueueLimits.none()
 *     .withMaxInFlight(20)                                 // the whole cluster
 *     .withMaxInFlightPerGroup(2)                          // each tenant
 *     .withRate(RateLimit.of(100, Duration.ofSeconds(1)))); // the mail provider's quota
 * }</pre>
 *
 * @param maxInFlight most messages of the queue in flight at once, 0 for no limit
 * @param maxInFlightPerGroup most in flight per group value ({@link OutgoingMessage#group}), 0 for
 *     no limit; messages without a group are held only by {@code maxInFlight}
 * @param rate most claims per period, or null for none
 */
public record QueueLimits(int maxInFlight, int maxInFlightPerGroup, @Nullable RateLimit rate) {
  /** The largest limit on messages in flight. */
  public static final int MAX = 1_000_000;

  /**
   * @throws IllegalArgumentException naming the field if it is negative or above {@link #MAX}
   */
  public QueueLimits {
    check("max in flight", maxInFlight);
    check("max in flight per group", maxInFlightPerGroup);
  }

  /** No limits: the default of every queue. */
  public static QueueLimits none() {
    return new QueueLimits(0, 0, null);
  }

  /** With at most {@code max} in flight across the cluster; 0 for no limit. */
  public QueueLimits withMaxInFlight(int max) {
    return new QueueLimits(max, maxInFlightPerGroup, rate);
  }

  /** With at most {@code max} in flight per group value; 0 for no limit. */
  public QueueLimits withMaxInFlightPerGroup(int max) {
    return new QueueLimits(maxInFlight, max, rate);
  }

  /** With this rate, or none for null. */
  public QueueLimits withRate(@Nullable RateLimit value) {
    return new QueueLimits(maxInFlight, maxInFlightPerGroup, value);
  }

  /**
   * @return true if nothing is limited
   */
  public boolean unlimited() {
    return maxInFlight == 0 && maxInFlightPerGroup == 0 && rate == null;
  }

  private static void check(String what, int value) {
    if (value < 0 || value > MAX) {
      throw new IllegalArgumentException(
          what + " must be 0 (no limit) to " + MAX + ", got " + value);
    }
  }
}
