package io.tenure.internal.schedules;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Slots at {@code anchor + k * interval}, {@code k >= 0}: plain arithmetic, so that any number of
 * them is counted at once. Built, checked, by {@link Slots#every}.
 */
record IntervalSlots(Duration interval, Instant anchor) implements Slots {
  @Override
  public Instant nextAfter(Instant after) {
    Arguments.notNull("after", after);
    return after.isBefore(anchor) ? anchor : slot(index(after) + 1);
  }

  @Override
  public Optional<Instant> latestAtOrBefore(Instant at) {
    Arguments.notNull("at", at);
    return at.isBefore(anchor) ? Optional.empty() : Optional.of(slot(index(at)));
  }

  /**
   * The number of slots from {@code from} to {@code to}, both included.
   *
   * @param from a slot
   * @param to a slot not before {@code from}
   */
  long count(Instant from, Instant to) {
    return index(to) - index(from) + 1;
  }

  /** The k of the latest slot at or before {@code at}, for {@code at} not before the anchor. */
  private long index(Instant at) {
    return Duration.between(anchor, at).dividedBy(interval);
  }

  private Instant slot(long k) {
    return anchor.plus(interval.multipliedBy(k));
  }

  @Override
  public String toString() {
    return "every " + interval + " from " + anchor;
  }
}
