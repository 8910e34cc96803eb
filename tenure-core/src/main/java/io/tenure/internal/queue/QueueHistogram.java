package io.tenure.internal.queue;

import io.tenure.DurationHistogram;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts durations into fixed buckets without a lock: any number of handler threads record at once,
 * and a reader takes a {@link DurationHistogram} at any time. A duration lands in the first bucket
 * whose upper bound it does not exceed (Prometheus's {@code le}), or in the overflow bucket past
 * the last bound.
 */
final class QueueHistogram {
  /**
   * Bounds for jobs, from a quick lookup to a long report: 5 ms to 5 min, about two and a half
   * buckets per tenfold.
   */
  static final List<Duration> JOB_BOUNDS =
      List.of(
          Duration.ofMillis(5),
          Duration.ofMillis(10),
          Duration.ofMillis(25),
          Duration.ofMillis(50),
          Duration.ofMillis(100),
          Duration.ofMillis(250),
          Duration.ofMillis(500),
          Duration.ofSeconds(1),
          Duration.ofMillis(2500),
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofMinutes(1),
          Duration.ofMinutes(2),
          Duration.ofMinutes(5));

  private final List<Duration> bounds;
  private final long[] boundNanos;

  /** One per bound, then the overflow bucket; each counts its own range, not cumulatively. */
  private final LongAdder[] buckets;

  /**
   * In microseconds, each duration cut to whole ones: a sum of nanoseconds would overflow after 292
   * years of summed durations, which a thousand busy handlers add up in about 107 days.
   */
  private final LongAdder sumMicros = new LongAdder();

  QueueHistogram() {
    this(JOB_BOUNDS);
  }

  /**
   * @throws IllegalArgumentException if the bounds are not positive and strictly ascending
   */
  QueueHistogram(List<Duration> bounds) {
    this.bounds = empty(bounds).bounds();
    this.boundNanos = this.bounds.stream().mapToLong(Duration::toNanos).toArray();
    this.buckets = new LongAdder[boundNanos.length + 1];
    Arrays.setAll(buckets, i -> new LongAdder());
  }

  /** Counts one duration; a negative one (a ticker that went back) counts as zero. */
  void record(long nanos) {
    long value = Math.max(0, nanos);
    buckets[bucketOf(value)].increment();
    sumMicros.add(TimeUnit.NANOSECONDS.toMicros(value));
  }

  /**
   * @return the index of the bucket {@code nanos} lands in: the first bound at least as long, or
   *     the number of bounds for the overflow bucket
   */
  int bucketOf(long nanos) {
    int found = Arrays.binarySearch(boundNanos, nanos);
    return found >= 0 ? found : -found - 1;
  }

  /**
   * What has been counted so far. The count is the sum of the buckets as read, so it always agrees
   * with them; the sum is read apart from them and may be a recording ahead or behind.
   */
  DurationHistogram snapshot() {
    List<Long> cumulative = new ArrayList<>(boundNanos.length);
    long running = 0;
    for (int i = 0; i < boundNanos.length; i++) {
      running += buckets[i].sum();
      cumulative.add(running);
    }
    long count = running + buckets[boundNanos.length].sum();
    return new DurationHistogram(
        bounds, cumulative, count, Duration.of(sumMicros.sum(), ChronoUnit.MICROS));
  }

  /**
   * @throws IllegalArgumentException if the bounds are not positive and strictly ascending
   */
  static DurationHistogram empty(List<Duration> bounds) {
    return new DurationHistogram(bounds, Collections.nCopies(bounds.size(), 0L), 0, Duration.ZERO);
  }
}
