package io.tenure.chaos;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The schedule and slot a message stands for, read from its dedupe key {@code
 * tenure-schedule:NAME@MICROS} ({@link io.tenure.spi.ScheduleFiring#dedupeKey}). A key may go on
 * after the micros with {@code #} and anything: the negative control's keys do, so that each of its
 * messages is unique and still names its slot.
 *
 * @param schedule the schedule's name
 * @param micros the slot, in microseconds since the epoch
 */
record SlotKey(String schedule, long micros) {
  static final String PREFIX = "tenure-schedule:";

  /**
   * @return the schedule and slot of {@code dedupeKey}; empty for any other key (a manual
   *     trigger's, a message of no schedule)
   */
  static Optional<SlotKey> parse(@Nullable String dedupeKey) {
    if (dedupeKey == null || !dedupeKey.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = dedupeKey.substring(PREFIX.length());
    int suffix = rest.indexOf('#', rest.lastIndexOf('@') + 1);
    String key = suffix < 0 ? rest : rest.substring(0, suffix);
    int at = key.lastIndexOf('@');
    if (at < 1 || at == key.length() - 1) {
      return Optional.empty();
    }
    String digits = key.substring(at + 1);
    if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 18) {
      return Optional.empty();
    }
    return Optional.of(new SlotKey(key.substring(0, at), Long.parseLong(digits)));
  }

  /** The slot's time. */
  Instant slot() {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  /** The slot of {@code at}, in microseconds since the epoch. */
  static long micros(Instant at) {
    return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000);
  }
}
