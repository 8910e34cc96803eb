package io.tenure;

import java.time.Duration;

/**
 * At most {@code claims} claims of a queue's messages in any period of length {@code per}, counted
 * on the database clock (SPEC §12.1): a sliding window, not a bucket that refills at fixed times.
 *
 * @param claims 1 to 1,000,000
 * @param per 1 ms to {@link Limits#MAX_DURATION}
 * @param perGroup true: each group value gets {@code claims} per {@code per} (messages without a
 *     group share one such budget); false: the whole queue does
 */
public record RateLimit(int claims, Duration per, boolean perGroup) {
  /** Most claims per period. */
  public static final int MAX_CLAIMS = 1_000_000;

  /**
   * @throws IllegalArgumentException naming the field if it is out of range
   */
  public RateLimit {
    if (claims < 1 || claims > MAX_CLAIMS) {
      throw new IllegalArgumentException(
          "rate limit claims must be 1 to " + MAX_CLAIMS + ", got " + claims);
    }
    Limits.checkPositive("rate limit period", per, Limits.MAX_DURATION);
    if (per.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException("rate limit period must be at least 1 ms, got " + per);
    }
  }

  /** {@code claims} per {@code per} for the whole queue. */
  public static RateLimit of(int claims, Duration per) {
    return new RateLimit(claims, per, false);
  }

  /** {@code claims} per {@code per} for each group value. */
  public static RateLimit perGroup(int claims, Duration per) {
    return new RateLimit(claims, per, true);
  }
}
