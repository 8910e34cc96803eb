package io.tenure.internal.cluster;

import io.tenure.NodeSettings;
import java.time.Duration;

/**
 * How often a leader checks its session lock and how long one check is trusted: pure functions of
 * the node's settings, shared by {@link LeaderElector} and {@link SessionLockWatch} (a candidate
 * that finds the lock free waits out the leader's trust before it takes the lease over).
 */
final class LockTiming {
  private LockTiming() {}

  /** The shortest lock trust: a check overdue by less is scheduling noise, not a pause. */
  private static final Duration MIN_LOCK_TRUST = Duration.ofMillis(250);

  /**
   * How long a leader that promised its session lock trusts one check of it: half a renew interval
   * (at least {@link #MIN_LOCK_TRUST}, at most half of {@code fenceAfter}), so a crashed leader is
   * replaced within about that.
   */
  static Duration lockTrust(NodeSettings settings) {
    Duration half = settings.renewInterval().dividedBy(2);
    Duration trust = half.compareTo(MIN_LOCK_TRUST) < 0 ? MIN_LOCK_TRUST : half;
    Duration most = settings.fenceAfter().dividedBy(2);
    return trust.compareTo(most) > 0 ? most : trust;
  }

  /**
   * How often the session lock is checked: a tenth of a renew interval, at least every 5 ms and at
   * least five times per lock trust.
   */
  static Duration lockInterval(NodeSettings settings) {
    Duration interval = settings.renewInterval().dividedBy(10);
    Duration most = lockTrust(settings).dividedBy(5);
    if (interval.compareTo(most) > 0) {
      interval = most;
    }
    return interval.compareTo(Duration.ofMillis(5)) < 0 ? Duration.ofMillis(5) : interval;
  }
}
