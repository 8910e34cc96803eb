package io.tenure;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Argument checks shared by the API's value types. Each failure names the argument and value. */
final class Checks {
  static final int MAX_TENANT_LENGTH = 128;
  static final int MAX_RESOURCE_LENGTH = 255;
  static final int MAX_REASON_LENGTH = 1000;

  /** The earliest time every provider stores (MariaDB's DATETIME starts at year 1 in practice). */
  static final Instant EARLIEST_INSTANT = Instant.parse("0001-01-01T00:00:00Z");

  /** The latest time every provider stores: MariaDB's DATETIME(6) ends here. */
  static final Instant LATEST_INSTANT = Instant.parse("9999-12-31T23:59:59.999999Z");

  private static final Pattern STATE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

  private Checks() {}

  static String id(String what, @Nullable String value, int maxLength) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    Limits.checkWellFormed(what, value);
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty or blank, got '" + value + "'");
    }
    if (value.length() > maxLength) {
      throw new IllegalArgumentException(
          what
              + " must be at most "
              + maxLength
              + " characters, got "
              + value.length()
              + " ('"
              + abbreviate(value)
              + "')");
    }
    if (!value.strip().equals(value)) {
      throw new IllegalArgumentException(
          what + " must not start or end with whitespace, got '" + value + "'");
    }
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          what + " must not contain control characters, got '" + printable(value) + "'");
    }
    return value;
  }

  static String state(@Nullable String state) {
    if (state == null) {
      throw new IllegalArgumentException("state must not be null");
    }
    if (!STATE.matcher(state).matches()) {
      throw new IllegalArgumentException(
          "state must match [A-Z][A-Z0-9_]{0,63} (e.g. ARCHIVED), got '"
              + printable(abbreviate(state))
              + "'");
    }
    return state;
  }

  static @Nullable String reason(@Nullable String reason) {
    if (reason == null) {
      return null;
    }
    if (reason.length() > MAX_REASON_LENGTH) {
      throw new IllegalArgumentException(
          "reason must be at most " + MAX_REASON_LENGTH + " characters, got " + reason.length());
    }
    if (reason.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("reason must not contain NUL characters");
    }
    Limits.checkWellFormed("reason", reason);
    return reason;
  }

  static Instant instant(String what, @Nullable Instant value) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    Instant micros = value.truncatedTo(ChronoUnit.MICROS);
    if (micros.isBefore(EARLIEST_INSTANT) || micros.isAfter(LATEST_INSTANT)) {
      // Beyond these a provider fails late and differently (overflow, DateTimeException, a
      // MariaDB-only range error), so refuse them here, before anything is written.
      throw new IllegalArgumentException(
          what
              + " must be between "
              + EARLIEST_INSTANT
              + " and "
              + LATEST_INSTANT
              + ", got "
              + value);
    }
    return micros;
  }

  private static String abbreviate(String value) {
    return value.length() <= 40 ? value : value.substring(0, 40) + "...";
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .forEach(
            cp -> {
              if (Character.isISOControl(cp)) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }
}
