package io.tenure;

import java.time.Duration;

/**
 * How a node competes for and keeps the leader lease (SPEC §4). Each is set through {@link
 * TenureNodeBuilder} and named there.
 *
 * @param leaseTtl the lease's time to live
 * @param renewInterval how often the leader renews (and candidates try to acquire)
 * @param fenceAfter how long without a successful renewal before the leader demotes itself
 * @param statementTimeout the store's bound on one lease statement, including the wait for its
 *     connection; zero where statements cannot block
 * @param promotable whether this node may lead
 * @param acquireDelay how long it waits after seeing the lease free before it tries to take it
 */
public record LeadershipSettings(
    Duration leaseTtl,
    Duration renewInterval,
    Duration fenceAfter,
    Duration statementTimeout,
    boolean promotable,
    Duration acquireDelay) {
  /** Default lease time to live. */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(5);

  /** Default renew interval. */
  public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(1);

  /** Default leader self-fence deadline. */
  public static final Duration DEFAULT_FENCE_AFTER = Duration.ofSeconds(4);

  /**
   * Checks each value and that {@code renewInterval + statementTimeout < fenceAfter < leaseTtl}: a
   * renewal that takes as long as the store allows still lands inside the trust window, and the
   * leader distrusts its lease before anyone else may take it.
   *
   * @throws IllegalArgumentException naming the setting, or both values of a broken order
   */
  public LeadershipSettings {
    SettingChecks.positive("leaseTtl", leaseTtl);
    SettingChecks.positive("renewInterval", renewInterval);
    SettingChecks.positive("fenceAfter", fenceAfter);
    Limits.checkNotNegative("statementTimeout", statementTimeout, Limits.MAX_DURATION);
    Limits.checkNotNegative("acquireDelay", acquireDelay, Limits.MAX_DURATION);
    SettingChecks.requireLess(
        "renewInterval + statementTimeout (" + renewInterval + " + " + statementTimeout + ")",
        renewInterval.plus(statementTimeout),
        "fenceAfter",
        fenceAfter);
    SettingChecks.requireLess("fenceAfter", fenceAfter, "leaseTtl", leaseTtl);
  }
}
