package io.tenure;

import java.time.Duration;

/**
 * How a node runs and the leader places agents (SPEC §5). Each is set through {@link
 * TenureNodeBuilder} and named there.
 *
 * @param sweepInterval how often the node reconciles its agents with the assignment rows
 * @param maxMovesPerPass rebalancing moves per leader pass (0 or less: no cap)
 * @param maxReconciliationsPerTick actions per node sweep (0 or less: no cap)
 * @param startTimeout how long an agent's start may take before it is abandoned
 * @param stopTimeout how long an agent's stop may take before it is abandoned
 * @param initialPlacementQuiet how long membership must have been still before the leader places
 *     agents that have no row yet (zero: at once)
 * @param initialPlacementMaxDelay the longest the leader holds such agents back, at least {@code
 *     initialPlacementQuiet}
 */
public record AgentSettings(
    Duration sweepInterval,
    int maxMovesPerPass,
    int maxReconciliationsPerTick,
    Duration startTimeout,
    Duration stopTimeout,
    Duration initialPlacementQuiet,
    Duration initialPlacementMaxDelay) {
  /** Default interval of the node's agent sweep. */
  public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(1);

  /** Default rebalancing moves per leader pass. */
  public static final int DEFAULT_MAX_MOVES_PER_PASS = 20;

  /** Default actions per node sweep (SPEC §5.4). */
  public static final int DEFAULT_MAX_RECONCILIATIONS_PER_TICK = 50;

  /** Default deadline of an agent's start. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Default deadline of an agent's stop. Short on purpose: the leader waits this long (plus the
   * self-fence and a sweep) after a node's last heartbeat before it hands the node's agents on.
   */
  public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(2);

  /** How long membership must have been still before agents without a row are placed. */
  public static final Duration DEFAULT_INITIAL_PLACEMENT_QUIET = Duration.ofMillis(500);

  /** The longest agents without a row are held back for a quiet membership. */
  public static final Duration DEFAULT_INITIAL_PLACEMENT_MAX_DELAY = Duration.ofSeconds(5);

  /** The defaults. */
  public static final AgentSettings DEFAULTS =
      new AgentSettings(
          DEFAULT_SWEEP_INTERVAL,
          DEFAULT_MAX_MOVES_PER_PASS,
          DEFAULT_MAX_RECONCILIATIONS_PER_TICK,
          DEFAULT_START_TIMEOUT,
          DEFAULT_STOP_TIMEOUT,
          DEFAULT_INITIAL_PLACEMENT_QUIET,
          DEFAULT_INITIAL_PLACEMENT_MAX_DELAY);

  /**
   * Checks each value.
   *
   * @throws IllegalArgumentException naming the setting if a duration is null, out of range, or the
   *     initial placement's max is shorter than its quiet period
   */
  public AgentSettings {
    SettingChecks.positive("agentSweepInterval", sweepInterval);
    SettingChecks.positive("agent start timeout", startTimeout);
    SettingChecks.positive("agent stop timeout", stopTimeout);
    checkInitialPlacement(initialPlacementQuiet, initialPlacementMaxDelay);
  }

  static void checkInitialPlacement(Duration quiet, Duration max) {
    Limits.checkNotNegative("initialPlacementDelay quiet", quiet, Limits.MAX_DURATION);
    Limits.checkNotNegative("initialPlacementDelay max", max, Limits.MAX_DURATION);
    if (max.compareTo(quiet) < 0) {
      throw new IllegalArgumentException(
          "initialPlacementDelay max must be at least its quiet period, got quiet "
              + quiet
              + " and max "
              + max);
    }
  }
}
