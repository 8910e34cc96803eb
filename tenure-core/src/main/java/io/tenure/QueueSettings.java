package io.tenure;

import java.time.Duration;

/**
 * How a node looks after queues beyond its consumers (SPEC §6.4, §6.6): its reclaim sweep, and how
 * long a closing node lets running handlers finish. Each is set through {@link TenureNodeBuilder}.
 *
 * @param reclaimInterval how often the node re-pends messages whose lease expired
 * @param reclaimPerTick messages re-pended per sweep, at least 1
 * @param drainDeadline how long a closing node lets its queue handlers finish
 */
public record QueueSettings(Duration reclaimInterval, int reclaimPerTick, Duration drainDeadline) {
  /** Default interval of the queue reclaim sweep (SPEC §6.4). */
  public static final Duration DEFAULT_RECLAIM_INTERVAL = Duration.ofSeconds(5);

  /** Default messages re-pended per reclaim sweep. */
  public static final int DEFAULT_RECLAIM_PER_TICK = 1000;

  /** How long a closing node lets its queue handlers finish. */
  public static final Duration DEFAULT_DRAIN_DEADLINE = Duration.ofSeconds(10);

  /** The defaults. */
  public static final QueueSettings DEFAULTS =
      new QueueSettings(DEFAULT_RECLAIM_INTERVAL, DEFAULT_RECLAIM_PER_TICK, DEFAULT_DRAIN_DEADLINE);

  /**
   * Checks each value.
   *
   * @throws IllegalArgumentException naming the setting if one is out of range
   */
  public QueueSettings {
    SettingChecks.positive("reclaim interval", reclaimInterval);
    checkReclaimPerTick(reclaimPerTick);
    SettingChecks.positive("drain deadline", drainDeadline);
  }

  static int checkReclaimPerTick(int perTick) {
    if (perTick < 1) {
      throw new IllegalArgumentException("reclaims per tick must be at least 1, got " + perTick);
    }
    return perTick;
  }
}
