package io.tenure.internal.schedules;

import org.jspecify.annotations.Nullable;

/** The argument checks the schedules share: each failure names the argument and its value. */
final class Arguments {
  private Arguments() {}

  static <T> T notNull(String what, @Nullable T value) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    return value;
  }

  static String notBlank(String what, @Nullable String value) {
    if (notNull(what, value).isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty or blank, got '" + value + "'");
    }
    return value;
  }
}
