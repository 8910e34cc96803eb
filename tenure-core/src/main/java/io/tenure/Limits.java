package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The bounds every provider can store and compute with (SPEC §1.9). Settings, policies, messages
 * and the SPI's value types refuse a value beyond them when it is given, naming the setting, the
 * value and the bound, so that no value a database cannot hold, or that overflows on the way to it,
 * ever reaches a store.
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
   * The longest retention or age: done messages, dead letters, history, "older than" filters: 3,650
   * days. The database clock minus this stays inside every provider's time range.
   */
  public static final Duration MAX_RETENTION = Duration.ofDays(3650);

  private Limits() {}

  /**
   * Checks a duration that must be positive and at most {@code max}.
   *
   * @param setting the setting's name, for the message
   * @param max {@link #MAX_DURATION} or {@link #MAX_RETENTION}
   * @return {@code value}
   * @throws IllegalArgumentException naming the setting, the value and the bound if it is null,
   *     zero, negative or longer than {@code max}
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

  /**
   * Checks that a string is well-formed UTF-16: every high surrogate is followed by a low one and
   * every low surrogate follows a high one. A lone surrogate has no UTF-8 form; every database
   * silently replaces it (with {@code ?} or U+FFFD), so two distinct ids would be stored as one.
   *
   * @param what the argument's name, for the message
   * @return {@code value}
   * @throws IllegalArgumentException naming the argument, the surrogate and its index if it is not
   *     well-formed, or if it is null
   */
  public static String checkWellFormed(String what, @Nullable String value) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    int bad = unpairedSurrogate(value);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          what
              + " has an unpaired surrogate U+"
              + String.format("%04X", (int) value.charAt(bad))
              + " at index "
              + bad
              + " (not well-formed UTF-16), got '"
              + escaped(value)
              + "'");
    }
    return value;
  }

  /**
   * @return the index of the first unpaired surrogate, or -1
   */
  static int unpairedSurrogate(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The value for a message: surrogates and control characters as {@code \\uXXXX}, cut after 60
   * characters.
   */
  static String escaped(String value) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    for (; i < value.length() && out.length() < 60; i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        out.append(c).append(value.charAt(++i));
      } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return i < value.length() ? out + "..." : out.toString();
  }

  private static Duration checkAtMost(String setting, Duration value, Duration max) {
    if (value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          setting
              + " must be at most "
              + max.toDays()
              + " days ("
              + max
              + "), got "
              + value
              + (value.toDays() > 0 ? " (" + value.toDays() + " days)" : ""));
    }
    return value;
  }
}
