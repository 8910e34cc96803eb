package io.tenure.spring;

import io.tenure.Limits;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The checks the properties' setters make, so that a bad value is refused while the properties are
 * bound, naming the property as it is written ({@code tenure.node.lease-ttl}).
 */
final class PropertyChecks {
  private PropertyChecks() {}

  /** Positive and at most {@link Limits#MAX_DURATION}, as every node timing must be. */
  static Duration positive(String property, @Nullable Duration value) {
    return Limits.checkPositive(property, value, Limits.MAX_DURATION);
  }

  /** Zero or more and at most {@code max}. */
  static Duration notNegative(String property, @Nullable Duration value, Duration max) {
    return Limits.checkNotNegative(property, value, max);
  }

  /** An int from {@code min} to {@code max}. */
  static int between(String property, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          property + " must be " + min + " to " + max + ", got " + value);
    }
    return value;
  }

  /** A text that is not blank, or null for the default. */
  static @Nullable String notBlank(String property, @Nullable String value) {
    if (value != null && value.isBlank()) {
      throw new IllegalArgumentException(
          property + " must not be blank; leave it out for the default");
    }
    return value;
  }
}
