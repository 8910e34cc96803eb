package io.tenure.internal.schedules;

import io.tenure.CronSyntax;
import io.tenure.Limits;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a schedule's slots fall: the instants at which it is due. Immutable, pure, and safe to share
 * between threads. A cron schedule's slots are wall-clock times in its time zone (see {@link
 * CronSlots} for what a daylight-saving change does to them); an interval's are a fixed number of
 * nanoseconds apart, whatever the clocks say.
 */
public sealed interface Slots permits CronSlots, IntervalSlots {
  /** The shortest interval: 1 ms. */
  Duration MIN_INTERVAL = Duration.ofMillis(1);

  /**
   * The first slot strictly after an instant.
   *
   * @param after any instant
   * @return the earliest slot later than {@code after}
   * @throws IllegalArgumentException if {@code after} is null, or if the schedule has no slot after
   *     it (only a Quartz schedule past 2099, the end of cron-utils' Quartz calendar)
   */
  Instant nextAfter(Instant after);

  /**
   * The latest slot at or before an instant.
   *
   * @param at any instant
   * @return the latest slot not later than {@code at}; empty if there is none (an interval before
   *     its anchor, a Quartz schedule before 1970)
   * @throws IllegalArgumentException if {@code at} is null
   */
  Optional<Instant> latestAtOrBefore(Instant at);

  /**
   * The slots of a cron expression: its wall-clock times in a time zone.
   *
   * @param syntax the expression's dialect
   * @param expression the cron expression, e.g. {@code 30 2 * * *}
   * @param zoneId the time zone's id, e.g. {@code Europe/Berlin} or {@code UTC}
   * @return the slots
   * @throws IllegalArgumentException naming the argument if one is null or blank; quoting the
   *     expression and cron-utils' reason if it is not valid in {@code syntax}; if it never fires
   *     (e.g. {@code 0 0 30 2 *}); if a Quartz year field is not {@code *}; quoting the zone id if
   *     it is unknown or malformed
   */
  static Slots cron(CronSyntax syntax, String expression, String zoneId) {
    return CronSlots.of(syntax, expression, zoneId);
  }

  /**
   * Slots at {@code anchor + k * interval} for every {@code k >= 0}.
   *
   * @param interval the time between two slots, 1 ms to {@link Limits#MAX_DURATION}
   * @param anchor the first slot
   * @return the slots
   * @throws IllegalArgumentException naming the argument and the value if {@code interval} is null,
   *     not positive, shorter than 1 ms or longer than {@link Limits#MAX_DURATION}, or if {@code
   *     anchor} is null
   */
  static Slots every(Duration interval, Instant anchor) {
    Limits.checkPositive("interval", interval, Limits.MAX_DURATION);
    if (interval.compareTo(MIN_INTERVAL) < 0) {
      throw new IllegalArgumentException("interval must be at least 1 ms, got " + interval);
    }
    return new IntervalSlots(interval, Arguments.notNull("anchor", anchor));
  }
}
