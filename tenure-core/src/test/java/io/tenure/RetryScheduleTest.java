package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The retry schedule, with the random draw chosen by the test. */
class RetryScheduleTest {
  private static final Duration BASE = Duration.ofMillis(100);
  private static final Duration CAP = Duration.ofMillis(1000);

  @Test
  void without_jitter_each_delay_is_the_base_times_the_factor_per_earlier_attempt_up_to_the_cap() {
    assertThat(delay(1, 0, 0.9)).isEqualTo(Duration.ofMillis(100));
    assertThat(delay(2, 0, 0.9)).isEqualTo(Duration.ofMillis(200));
    assertThat(delay(3, 0, 0.9)).isEqualTo(Duration.ofMillis(400));
    assertThat(delay(4, 0, 0.9)).isEqualTo(Duration.ofMillis(800));
    assertThat(delay(5, 0, 0.9)).isEqualTo(CAP);
    assertThat(delay(1_000, 0, 0.9)).isEqualTo(CAP);
  }

  @Test
  void an_attempt_below_1_waits_as_long_as_the_first() {
    assertThat(delay(0, 0, 0.5)).isEqualTo(BASE);
    assertThat(delay(-3, 0, 0.5)).isEqualTo(BASE);
  }

  @Test
  void the_draw_moves_the_delay_by_up_to_the_jitter_either_way() {
    // 400 ms (the third attempt) with 50 % jitter: 200 ms to 600 ms.
    assertThat(delay(3, 0.5, 0.5)).isEqualTo(Duration.ofMillis(400));
    assertThat(delay(3, 0.5, 0.0)).isEqualTo(Duration.ofMillis(200));
    assertThat(delay(3, 0.5, 0.25)).isEqualTo(Duration.ofMillis(300));
    assertThat(delay(3, 0.5, 0.75)).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void jitter_never_takes_a_delay_above_the_cap() {
    // 800 ms plus 40 %: 1120 ms, held at the 1000 ms cap; the cap itself only goes down.
    assertThat(delay(4, 0.5, 0.9)).isEqualTo(CAP);
    assertThat(delay(9, 0.5, 0.75)).isEqualTo(CAP);
    assertThat(delay(9, 0.5, 0.25)).isEqualTo(Duration.ofMillis(750));
  }

  @Property
  void a_delay_is_within_the_jitter_of_the_capped_delay_and_never_above_the_cap(
      @ForAll @LongRange(min = 1, max = 60_000) long baseMillis,
      @ForAll @DoubleRange(min = 1, max = 10) double factor,
      @ForAll @LongRange(min = 0, max = 3_600_000) long extraCapMillis,
      @ForAll @DoubleRange(min = 0, max = 1) double jitter,
      @ForAll @IntRange(min = -5, max = 200) int attempt,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
    Duration base = Duration.ofMillis(baseMillis);
    Duration cap = base.plusMillis(extraCapMillis);
    Duration plain = RetrySchedule.delay(base, factor, cap, 0, attempt, random);
    Duration moved = RetrySchedule.delay(base, factor, cap, jitter, attempt, random);

    assertThat(plain).isBetween(base, cap);
    double nanos = plain.toNanos();
    assertThat((double) moved.toNanos())
        .isBetween(nanos * (1 - jitter) - 1, Math.min(cap.toNanos(), nanos * (1 + jitter)) + 1);
    assertThat(moved).isLessThanOrEqualTo(cap);
  }

  @Property
  void without_jitter_delays_never_shrink_from_one_attempt_to_the_next(
      @ForAll @LongRange(min = 1, max = 60_000) long baseMillis,
      @ForAll @DoubleRange(min = 1, max = 10) double factor,
      @ForAll @LongRange(min = 0, max = 3_600_000) long extraCapMillis,
      @ForAll @IntRange(min = 1, max = 200) int attempt) {
    Duration base = Duration.ofMillis(baseMillis);
    Duration cap = base.plusMillis(extraCapMillis);
    assertThat(RetrySchedule.delay(base, factor, cap, 0, attempt + 1, 0.5))
        .isGreaterThanOrEqualTo(RetrySchedule.delay(base, factor, cap, 0, attempt, 0.5));
  }

  private static Duration delay(int attempt, double jitter, double random) {
    return RetrySchedule.delay(BASE, 2, CAP, jitter, attempt, random);
  }
}
