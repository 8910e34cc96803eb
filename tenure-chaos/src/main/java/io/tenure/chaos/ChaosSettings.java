package io.tenure.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One chaos run's settings.
 *
 * @param storeUrl the store: {@code sqlite:PATH}, {@code jdbc:postgresql:...}, {@code
 *     jdbc:mariadb:...}
 * @param prefix the table prefix of this run (fresh per run)
 * @param nodes node processes, at least 2
 * @param faultPhase how long faults are injected
 * @param faultEvery the pause between one fault's recovery and the next fault
 * @param downFor how long a killed or stopped node stays down
 * @param pauseFor how long a paused node stays frozen: longer than its lease and stale timeouts
 * @param quiet how long the cluster settles after the last fault before the check
 * @param rate messages enqueued per second
 * @param work how long a handler of a FIFO message works: longer work makes the window where a
 *     superseded owner's late outcome meets the current claim wider
 * @param lockWork how long a lock holder's fenced write works between its fence and its commit
 *     ({@link LockWrites}): longer work makes the window a frozen holder resumes in wider
 * @param seed the fault schedule's seed: the same seed draws the same faults
 * @param dir where node logs and the report go
 * @param jvm the command that starts a JVM on the harness's classpath ({@code java OPTIONS -cp
 *     PATH}); each node runs {@link ChaosNode} in one
 * @param guarded false for the negative control: agents' register writes ignore the epoch
 * @param unsafe for a negative control, the guard every node breaks ({@link UnsafeGuard}); null for
 *     none
 * @param stallLeaderPass how long every leader pass stalls before it writes its plan ({@link
 *     LeaderPassStall}); zero for none
 * @param faults the faults to draw from, by label ({@link #FAULTS}); empty for all that apply to
 *     the store
 */
public record ChaosSettings(
    String storeUrl,
    String prefix,
    int nodes,
    Duration faultPhase,
    Duration faultEvery,
    Duration downFor,
    Duration pauseFor,
    Duration quiet,
    int rate,
    Duration work,
    Duration lockWork,
    long seed,
    Path dir,
    List<String> jvm,
    boolean guarded,
    @Nullable UnsafeGuard unsafe,
    Duration stallLeaderPass,
    java.util.Set<String> faults) {

  /** Every fault label, in the order a seed draws from. */
  public static final List<String> FAULTS =
      List.of(
          "kill leader",
          "kill",
          "pause",
          "stop",
          "kill-connections",
          "slow-db",
          "restart-db",
          "pause leader",
          "agent-rows");

  /** The longest a fenced lock write may work: half the locks' TTL, so renewals keep up. */
  public static final Duration MAX_LOCK_WORK = LockWorkload.TTL.dividedBy(2);

  /** The longest leader-pass stall: well past any lease, but a run still makes progress. */
  public static final Duration MAX_STALL = Duration.ofSeconds(30);

  /** Checks the settings: every problem is named. */
  public ChaosSettings {
    if (nodes < 2 || nodes > 9) {
      throw new IllegalArgumentException("nodes must be 2 to 9, got " + nodes);
    }
    if (rate < 1 || rate > 1000) {
      throw new IllegalArgumentException("rate must be 1 to 1000 messages per second, got " + rate);
    }
    if (work.isNegative() || work.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("work must be 0 to 1 minute, got " + work);
    }
    if (lockWork.isNegative() || lockWork.compareTo(MAX_LOCK_WORK) > 0) {
      throw new IllegalArgumentException("lock-work must be 0 to 1s, got " + lockWork);
    }
    for (Duration duration : List.of(faultPhase, faultEvery, downFor, pauseFor, quiet)) {
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("durations must be positive, got " + duration);
      }
    }
    if (stallLeaderPass.isNegative() || stallLeaderPass.compareTo(MAX_STALL) > 0) {
      throw new IllegalArgumentException(
          "stall-leader-pass must be 0 to 30s, got " + stallLeaderPass);
    }
    jvm = List.copyOf(jvm);
    faults = java.util.Set.copyOf(faults);
    for (String fault : faults) {
      if (!FAULTS.contains(fault)) {
        throw new IllegalArgumentException(
            "unknown fault '" + fault + "'; choose from " + String.join(", ", FAULTS));
      }
    }
  }
}
