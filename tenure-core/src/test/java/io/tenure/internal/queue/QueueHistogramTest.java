package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.DurationHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The consumer's histograms: Prometheus's buckets (a duration counts in every bucket whose upper
 * bound it does not exceed), the count and the sum, recorded by many threads at once.
 */
class QueueHistogramTest {
  private static final long MS = 1_000_000L;
  private static final List<Duration> BOUNDS =
      List.of(Duration.ofMillis(10), Duration.ofMillis(100), Duration.ofSeconds(1));

  @Test
  void the_job_bounds_run_from_5_ms_to_5_min() {
    assertThat(QueueHistogram.JOB_BOUNDS.getFirst()).isEqualTo(Duration.ofMillis(5));
    assertThat(QueueHistogram.JOB_BOUNDS.getLast()).isEqualTo(Duration.ofMinutes(5));
    assertThat(new QueueHistogram().snapshot().bounds()).isEqualTo(QueueHistogram.JOB_BOUNDS);
  }

  @Test
  void a_duration_exactly_at_a_bound_counts_in_its_bucket_and_a_nanosecond_more_in_the_next() {
    QueueHistogram histogram = new QueueHistogram(BOUNDS);

    assertThat(histogram.bucketOf(0)).isZero();
    assertThat(histogram.bucketOf(10 * MS)).isZero();
    assertThat(histogram.bucketOf(10 * MS + 1)).isEqualTo(1);
    assertThat(histogram.bucketOf(100 * MS)).isEqualTo(1);
    assertThat(histogram.bucketOf(1000 * MS)).isEqualTo(2);
    assertThat(histogram.bucketOf(1000 * MS + 1)).as("the overflow bucket").isEqualTo(3);
    assertThat(histogram.bucketOf(Long.MAX_VALUE)).isEqualTo(3);
  }

  @Test
  void the_counts_are_cumulative_and_the_count_includes_durations_past_the_last_bound() {
    QueueHistogram histogram = new QueueHistogram(BOUNDS);
    for (long nanos : new long[] {10 * MS, 10 * MS + 1, 300 * MS, 2000 * MS, 5 * MS}) {
      histogram.record(nanos);
    }

    DurationHistogram read = histogram.snapshot();

    assertThat(read.bounds()).isEqualTo(BOUNDS);
    assertThat(read.counts()).containsExactly(2L, 3L, 4L);
    assertThat(read.count()).isEqualTo(5);
    assertThat(read.sum()).as("the extra nanosecond is cut").isEqualTo(Duration.ofMillis(2325));
  }

  @Test
  void the_sum_keeps_whole_microseconds_and_a_negative_duration_counts_as_zero() {
    QueueHistogram histogram = new QueueHistogram(BOUNDS);
    histogram.record(1_999); // 1 µs and 999 ns
    histogram.record(-5 * MS);

    DurationHistogram read = histogram.snapshot();

    assertThat(read.sum()).isEqualTo(Duration.ofNanos(1_000));
    assertThat(read.counts()).containsExactly(2L, 2L, 2L);
    assertThat(read.count()).isEqualTo(2);
  }

  @Test
  void an_empty_histogram_counts_nothing() {
    DurationHistogram read = new QueueHistogram(BOUNDS).snapshot();

    assertThat(read).isEqualTo(QueueHistogram.empty(BOUNDS));
    assertThat(read.counts()).containsExactly(0L, 0L, 0L);
    assertThat(read.count()).isZero();
    assertThat(read.sum()).isZero();
  }

  @Property
  void each_bucket_counts_the_durations_at_most_its_bound_and_the_sum_their_microseconds(
      @ForAll @Size(max = 60) List<@LongRange(min = -MS, max = 3000 * MS) Long> durations) {
    QueueHistogram histogram = new QueueHistogram(BOUNDS);
    durations.forEach(histogram::record);

    DurationHistogram read = histogram.snapshot();

    for (int i = 0; i < BOUNDS.size(); i++) {
      long bound = BOUNDS.get(i).toNanos();
      assertThat(read.counts().get(i))
          .as("at most " + BOUNDS.get(i))
          .isEqualTo(durations.stream().filter(d -> d <= bound).count());
    }
    assertThat(read.count()).isEqualTo(durations.size());
    long micros =
        durations.stream().mapToLong(d -> TimeUnit.NANOSECONDS.toMicros(Math.max(0, d))).sum();
    assertThat(read.sum()).isEqualTo(Duration.ofNanos(micros * 1000));
  }

  @Test
  void threads_recording_at_once_lose_no_count() throws Exception {
    QueueHistogram histogram = new QueueHistogram(BOUNDS);
    int threads = 8;
    int each = 10_000;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long nanos = t % 2 == 0 ? 5 * MS : 50 * MS;
      started.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < each; i++) {
                      histogram.record(nanos);
                    }
                  }));
    }
    for (Thread thread : started) {
      thread.join();
    }

    DurationHistogram read = histogram.snapshot();

    assertThat(read.counts()).containsExactly(40_000L, 80_000L, 80_000L);
    assertThat(read.count()).isEqualTo(80_000);
    assertThat(read.sum()).isEqualTo(Duration.ofMillis(40_000L * 5 + 40_000L * 50));
  }

  @Test
  void a_snapshot_refuses_what_is_not_a_histogram() {
    List<Duration> two = List.of(Duration.ofMillis(1), Duration.ofMillis(2));
    assertThatThrownBy(() -> new DurationHistogram(two, List.of(1L), 1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one count per bound");
    assertThatThrownBy(
            () ->
                new DurationHistogram(
                    List.of(Duration.ofMillis(2), Duration.ofMillis(1)),
                    List.of(0L, 0L),
                    0,
                    Duration.ZERO))
        .hasMessageContaining("strictly ascending");
    assertThatThrownBy(
            () ->
                new DurationHistogram(
                    List.of(Duration.ZERO, Duration.ofMillis(1)),
                    List.of(0L, 0L),
                    0,
                    Duration.ZERO))
        .hasMessageContaining("positive");
    assertThatThrownBy(
            () ->
                new DurationHistogram(
                    List.of(Duration.ofMillis(1), Duration.ofMillis(1)),
                    List.of(0L, 0L),
                    0,
                    Duration.ZERO))
        .hasMessageContaining("strictly ascending");
    assertThatThrownBy(() -> new DurationHistogram(two, List.of(2L, 1L), 2, Duration.ZERO))
        .hasMessageContaining("must not fall");
    assertThatThrownBy(() -> new DurationHistogram(two, List.of(-1L, 0L), 0, Duration.ZERO))
        .hasMessageContaining("must not fall");
    assertThatThrownBy(() -> new DurationHistogram(two, List.of(1L, 2L), 1, Duration.ZERO))
        .hasMessageContaining("count 1 is below its last bucket's 2");
    assertThatThrownBy(() -> new DurationHistogram(List.of(), List.of(), -1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DurationHistogram(two, List.of(0L, 0L), 0, Duration.ofNanos(-1)))
        .hasMessageContaining("sum must not be negative");
    assertThat(new DurationHistogram(two, List.of(1L, 1L), 3, Duration.ofMillis(7)).count())
        .isEqualTo(3);
  }
}
