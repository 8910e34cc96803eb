package io.tenure;

import java.time.Duration;

/**
 * The retry schedule (SPEC §6) as a pure function: the random draw that spreads the delays is
 * passed in, so every delay can be checked exactly.
 */
final class RetrySchedule {
  private RetrySchedule() {}

  /**
   * {@code base * factor^(attempt-1)}, capped, then moved by up to {@code jitter} of itself, never
   * above the cap.
   *
   * @param attempt the attempt that failed, 1 for the first (anything lower counts as 1)
   * @param random a draw from {@code [0, 1)}: 0.5 leaves the delay as it is, 0 takes the whole
   *     jitter off it, towards 1 adds the whole jitter
   */
  static Duration delay(
      Duration base, double factor, Duration cap, double jitter, int attempt, double random) {
    double nanos = base.toNanos() * Math.pow(factor, Math.max(0, attempt - 1));
    double capped = Math.min(nanos, cap.toNanos());
    double spread = capped * jitter * (random * 2 - 1);
    return Duration.ofNanos((long) Math.max(0, Math.min(cap.toNanos(), capped + spread)));
  }
}
