package io.tenure;

import java.time.Duration;
import java.util.List;

/**
 * A histogram of durations as read at one moment, in Prometheus's shape: for each bucket's upper
 * bound the number of observations at most that long (cumulative), the number of all observations,
 * and their sum. Read from counters that keep counting, so two reads may differ.
 *
 * @param bounds the buckets' upper bounds, inclusive, positive and strictly ascending
 * @param counts for each bound, the observations at most that long: never falling from one bound to
 *     the next, and at most {@code count}
 * @param count every observation, those longer than the last bound included
 * @param sum the observations' total
 */
public record DurationHistogram(
    List<Duration> bounds, List<Long> counts, long count, Duration sum) {
  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException if a bound is not positive or not above the one before, the
   *     lists differ in size, a count is negative, falls from one bound to the next or is above
   *     {@code count}, or {@code sum} is negative
   * @throws NullPointerException if a list, an element or {@code sum} is null
   */
  public DurationHistogram {
    bounds = List.copyOf(bounds);
    counts = List.copyOf(counts);
    if (bounds.size() != counts.size()) {
      throw new IllegalArgumentException(
          "a histogram needs one count per bound, got " + bounds + " and " + counts);
    }
    Duration lastBound = Duration.ZERO;
    long lastCount = 0;
    for (int i = 0; i < bounds.size(); i++) {
      if (bounds.get(i).compareTo(lastBound) <= 0) {
        throw new IllegalArgumentException(
            "histogram bounds must be positive and strictly ascending, got " + bounds);
      }
      if (counts.get(i) < lastCount) {
        throw new IllegalArgumentException(
            "histogram counts are cumulative and must not fall, got " + counts);
      }
      lastBound = bounds.get(i);
      lastCount = counts.get(i);
    }
    if (count < lastCount) {
      throw new IllegalArgumentException(
          "a histogram's count " + count + " is below its last bucket's " + lastCount);
    }
    if (sum.isNegative()) {
      throw new IllegalArgumentException("a histogram's sum must not be negative, got " + sum);
    }
  }
}
