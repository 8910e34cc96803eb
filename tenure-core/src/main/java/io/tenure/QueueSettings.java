package io.tenure;

import java.time.Duration;

/**
 * How a node looks after queues beyond its consumers (SPEC §6.4, §6.6): its reclaim sweep, how long
 * a closing node lets running handlers finish, how its consumers poll an empty queue and whether
 * they take wake-ups (docs/QUEUE.md, "Wake-ups"). Each is set through {@link TenureNodeBuilder}.
 *
 * @param reclaimInterval how often the node re-pends messages whose lease expired
 * @param reclaimPerTick messages re-pended per sweep, at least 1
 * @param drainDeadline how long a closing node lets its queue handlers finish
 * @param pollMin a shared consumer's first wait on an empty queue
 * @param pollMax its longest wait, backed off to while the queue stays empty; at least {@code
 *     pollMin}
 * @param wakeups whether the node takes wake-ups
 * @param wakeHost the address its wake-up socket binds to and advertises
 */
public record QueueSettings(
    Duration reclaimInterval,
    int reclaimPerTick,
    Duration drainDeadline,
    Duration pollMin,
    Duration pollMax,
    boolean wakeups,
    String wakeHost) {
  /** Default interval of the queue reclaim sweep (SPEC §6.4). */
  public static final Duration DEFAULT_RECLAIM_INTERVAL = Duration.ofSeconds(5);

  /** Default messages re-pended per reclaim sweep. */
  public static final int DEFAULT_RECLAIM_PER_TICK = 1000;

  /** How long a closing node lets its queue handlers finish. */
  public static final Duration DEFAULT_DRAIN_DEADLINE = Duration.ofSeconds(10);

  /** A shared consumer's first wait on an empty queue. */
  public static final Duration DEFAULT_POLL_MIN = Duration.ofMillis(20);

  /** A shared consumer's longest wait on an empty queue. */
  public static final Duration DEFAULT_POLL_MAX = Duration.ofSeconds(1);

  /** Where a node takes wake-ups unless told: this host only. */
  public static final String DEFAULT_WAKE_HOST = "127.0.0.1";

  // Before DEFAULTS, which checks against it. What a capability (wake:udp:HOST:PORT, at most 64
  // characters) can carry.
  private static final java.util.regex.Pattern HOST =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:-]*");

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
    checkPolling(pollMin, pollMax);
    checkWakeHost(wakeHost);
  }

  /**
   * The default polling and wake-ups with these values.
   *
   * @throws IllegalArgumentException naming the setting if one is out of range
   */
  public QueueSettings(Duration reclaimInterval, int reclaimPerTick, Duration drainDeadline) {
    this(
        reclaimInterval,
        reclaimPerTick,
        drainDeadline,
        DEFAULT_POLL_MIN,
        DEFAULT_POLL_MAX,
        true,
        DEFAULT_WAKE_HOST);
  }

  QueueSettings withReclaim(Duration interval, int perTick) {
    return new QueueSettings(interval, perTick, drainDeadline, pollMin, pollMax, wakeups, wakeHost);
  }

  QueueSettings withDrainDeadline(Duration deadline) {
    return new QueueSettings(
        reclaimInterval, reclaimPerTick, deadline, pollMin, pollMax, wakeups, wakeHost);
  }

  QueueSettings withPolling(Duration min, Duration max) {
    return new QueueSettings(
        reclaimInterval, reclaimPerTick, drainDeadline, min, max, wakeups, wakeHost);
  }

  QueueSettings withWakeups(boolean enabled, String host) {
    return new QueueSettings(
        reclaimInterval, reclaimPerTick, drainDeadline, pollMin, pollMax, enabled, host);
  }

  static void checkPolling(Duration min, Duration max) {
    SettingChecks.positive("poll min", min);
    SettingChecks.positive("poll max", max);
    if (max.compareTo(min) < 0) {
      throw new IllegalArgumentException(
          "poll max (" + max + ") must be at least poll min (" + min + ")");
    }
  }

  static String checkWakeHost(String host) {
    if (host == null || host.isBlank() || host.length() > 40 || !HOST.matcher(host).matches()) {
      throw new IllegalArgumentException(
          "wake host must be an IP address or host name of at most 40 of [A-Za-z0-9.:-], got '"
              + host
              + "'");
    }
    return host;
  }

  static int checkReclaimPerTick(int perTick) {
    if (perTick < 1) {
      throw new IllegalArgumentException("reclaims per tick must be at least 1, got " + perTick);
    }
    return perTick;
  }
}
