package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The bounds every provider can store and compute with (SPEC §1.9). Settings, policies, messages
 * and the SPI's value types refuse a value beyond them when it is given, naming the setting, the
 * value and the bound, so that no value a database cannot hold, or that overflows on the way to
 * it, ever reaches a store.
 */
public final class Limits {
  /**
   * The longest lease, TTL, interval, timeout, delay or backoff: 365 days. The database clock plus
   * this stays inside every provider's time range (MariaDB's {@code DATETIME(6)} ends in 9999), in
   * microseconds it stays exact in PostgreSQL's interval arithmetic, and a sum of a few of them
   * stays far inside the 292 years a {@code long} of nanoseconds holds, which the runtime's
   * monotonic deadlines use.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  /**
   * The longest retention or age: done messages, dead letters, history, "older than" filters:
   * 3,650 days. The database clock minus this stays inside every provider's time range.
   */
  public static final Duration MAX_RETENTION = Duration.ofDays(3650);

  private Limits() {}

  /**
   * Checks a duration that must be positive and at most {@code max}.
   *
   * @param setting the setting's name, for the message
   * @param max {@link #MAX_DURATION} or {@link #MAX_RETENTION}
   * @return {@code value}
   * @throws IllegalArgumentException naming the setting, the value and the bound if it is null, zero,
   *     negative or longer than {@code max}
   */
  public static Duration checkPositive(String setting, @Nullable Duration value, Duration max) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(setting + " must be positive, got " + value);
    }
    return checkAtMost(setting, value, max);
  }

  /**
   * Checks a duration that may be zero and must be at most {@code max}.
   *
   * @param setting the setting's name, for the message
   * @param max {@link #MAX_DURATION} or {@link #MAX_RETENTION}
   * @return {@code value}
   * @throws IllegalArgumentException naming the setting, the value and the bound if it is null,
   *     negative or longer than {@code max}
   */
  public static Duration checkNotNegative(String setting, @Nullable Duration value, Duration max) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(setting + " must not be null or negative, got " + value);
    }
    return checkAtMost(setting, value, max);
  }

  private static Duration checkAtMost(String setting, Duration value, Duration max) {
    if (value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          setting + " must be at most " + max.toDays() + " days (" + max + "), got " + value
              + (value.toDays() > 0 ? " (" + value.toDays() + " days)" : ""));
    }
    return value;
  }
}
