package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The checks node settings share, so that a builder's setter and the record it fills refuse a value
 * in the same words.
 */
final class SettingChecks {
  private SettingChecks() {}

  /**
   * Positive and at most {@link Limits#MAX_DURATION}: a deadline in nanoseconds cannot overflow.
   */
  static Duration positive(String setting, @Nullable Duration value) {
    return Limits.checkPositive(setting, value, Limits.MAX_DURATION);
  }

  /** A rule that ties two settings together: refused, naming both, never adjusted. */
  static void requireLess(String smallName, Duration small, String bigName, Duration big) {
    if (small.compareTo(big) >= 0) {
      throw new IllegalArgumentException(
          smallName + " must be less than " + bigName + ", got " + small + " and " + big);
    }
  }
}
