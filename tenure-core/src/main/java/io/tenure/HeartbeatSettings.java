package io.tenure;

import java.time.Duration;

/**
 * How a node keeps its membership (SPEC §3): how often it heart-beats, when it stops its own work
 * for want of a successful heartbeat, and when the leader declares it dead. Each is set through
 * {@link TenureNodeBuilder} and named there.
 *
 * @param interval how often the node heart-beats ({@code heartbeatInterval})
 * @param selfFenceAfter how long without a successful heartbeat before it stops its work
 * @param staleAfter how old a heartbeat is before the leader declares the node dead
 */
public record HeartbeatSettings(Duration interval, Duration selfFenceAfter, Duration staleAfter) {
  /** Default heartbeat interval. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  /** Default self-fence deadline. */
  public static final Duration DEFAULT_SELF_FENCE_AFTER = Duration.ofSeconds(3);

  /** Default staleness after which the leader declares a node dead. */
  public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(5);

  /**
   * Checks each value and that {@code interval < selfFenceAfter < staleAfter}: a node stops its
   * work before anyone may declare it dead, and one missed heartbeat does not fence it.
   *
   * @throws IllegalArgumentException naming the setting, or both values of a broken order
   */
  public HeartbeatSettings {
    SettingChecks.positive("heartbeatInterval", interval);
    SettingChecks.positive("selfFenceAfter", selfFenceAfter);
    SettingChecks.positive("staleAfter", staleAfter);
    SettingChecks.requireLess("heartbeatInterval", interval, "selfFenceAfter", selfFenceAfter);
    SettingChecks.requireLess("selfFenceAfter", selfFenceAfter, "staleAfter", staleAfter);
  }
}
