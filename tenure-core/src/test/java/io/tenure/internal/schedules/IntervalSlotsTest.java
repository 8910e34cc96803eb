package io.tenure.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Limits;
import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** An interval's slots: {@code anchor + k * interval} for {@code k >= 0}, by arithmetic. */
class IntervalSlotsTest {
  private static final Instant ANCHOR = Instant.parse("2026-01-01T00:00:00Z");

  @Provide
  Arbitrary<Duration> intervals() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(
            3, Arbitraries.longs().between(1_000_000L, 86_400_000_000_000L).map(Duration::ofNanos)),
        net.jqwik.api.Tuple.of(
            1, Arbitraries.of(Duration.ofMillis(1), Duration.ofSeconds(1), Limits.MAX_DURATION)));
  }

  @Property
  void the_next_slot_is_the_first_anchor_plus_a_multiple_strictly_after(
      @ForAll("intervals") Duration interval,
      @ForAll @LongRange(min = -1_000_000_000_000L, max = 1_000_000_000_000L) long offsetMillis) {
    Slots slots = Slots.every(interval, ANCHOR);
    Instant after = ANCHOR.plusMillis(offsetMillis);
    Instant next = slots.nextAfter(after);

    assertThat(next).isAfter(after).isAfterOrEqualTo(ANCHOR);
    assertThat(Duration.between(ANCHOR, next).toNanos() % interval.toNanos()).isZero();
    if (after.isBefore(ANCHOR)) {
      assertThat(next).isEqualTo(ANCHOR);
    } else {
      assertThat(next.minus(interval)).isBeforeOrEqualTo(after);
    }
  }

  @Property
  void the_latest_slot_is_the_last_anchor_plus_a_multiple_at_or_before_and_none_before_the_anchor(
      @ForAll("intervals") Duration interval,
      @ForAll @LongRange(min = -1_000_000_000_000L, max = 1_000_000_000_000L) long offsetMillis) {
    Slots slots = Slots.every(interval, ANCHOR);
    Instant at = ANCHOR.plusMillis(offsetMillis);

    if (at.isBefore(ANCHOR)) {
      assertThat(slots.latestAtOrBefore(at)).isEmpty();
      assertThat(slots.nextAfter(at)).isEqualTo(ANCHOR);
      return;
    }
    Instant latest = slots.latestAtOrBefore(at).orElseThrow();
    assertThat(latest).isBeforeOrEqualTo(at);
    assertThat(latest.plus(interval)).isAfter(at);
    assertThat(slots.nextAfter(latest)).isEqualTo(latest.plus(interval));
    assertThat(slots.latestAtOrBefore(latest)).contains(latest);
  }

  @Property
  void counting_slots_is_the_difference_of_their_multiples_plus_one(
      @ForAll("intervals") Duration interval,
      @ForAll @LongRange(min = 0, max = 1_000) long first,
      @ForAll @LongRange(min = 0, max = 1_000_000) long more) {
    IntervalSlots slots = (IntervalSlots) Slots.every(interval, ANCHOR);
    Instant from = ANCHOR.plus(interval.multipliedBy(first));
    Instant to = ANCHOR.plus(interval.multipliedBy(first + more));

    assertThat(slots.count(from, to)).isEqualTo(more + 1);
  }

  @Test
  void a_millisecond_interval_over_eight_thousand_years_is_still_exact() {
    Slots slots = Slots.every(Duration.ofMillis(1), Instant.parse("0001-01-01T00:00:00Z"));
    Instant at = Instant.parse("9999-12-31T23:59:59.9995Z");

    assertThat(slots.latestAtOrBefore(at)).contains(Instant.parse("9999-12-31T23:59:59.999Z"));
    assertThat(slots.nextAfter(at)).isEqualTo(Instant.parse("+10000-01-01T00:00:00Z"));
  }

  @Test
  void an_interval_describes_itself_by_its_interval_and_anchor() {
    assertThat(Slots.every(Duration.ofMinutes(5), ANCHOR))
        .hasToString("every PT5M from 2026-01-01T00:00:00Z");
  }

  @Test
  void the_anchor_is_the_first_slot() {
    Slots slots = Slots.every(Duration.ofMinutes(5), ANCHOR);

    assertThat(slots.latestAtOrBefore(ANCHOR)).contains(ANCHOR);
    assertThat(slots.latestAtOrBefore(ANCHOR.minusNanos(1))).isEmpty();
    assertThat(slots.nextAfter(ANCHOR.minusNanos(1))).isEqualTo(ANCHOR);
    assertThat(slots.nextAfter(ANCHOR)).isEqualTo(ANCHOR.plus(Duration.ofMinutes(5)));
  }

  @Test
  void an_interval_of_1_ms_and_one_of_365_days_are_accepted() {
    assertThat(Slots.every(Duration.ofMillis(1), ANCHOR).nextAfter(ANCHOR))
        .isEqualTo(ANCHOR.plusMillis(1));
    assertThat(Slots.every(Limits.MAX_DURATION, ANCHOR).nextAfter(ANCHOR))
        .isEqualTo(ANCHOR.plus(Duration.ofDays(365)));
  }

  @Test
  void an_interval_that_is_null_not_positive_too_short_or_too_long_is_refused_naming_it() {
    assertThatThrownBy(() -> Slots.every(null, ANCHOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be positive, got null");
    assertThatThrownBy(() -> Slots.every(Duration.ZERO, ANCHOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be positive, got PT0S");
    assertThatThrownBy(() -> Slots.every(Duration.ofSeconds(-1), ANCHOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be positive, got PT-1S");
    assertThatThrownBy(() -> Slots.every(Duration.ofNanos(999_999), ANCHOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be at least 1 ms, got PT0.000999999S");
    assertThatThrownBy(() -> Slots.every(Duration.ofDays(366), ANCHOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("interval must be at most 365 days (PT8760H), got PT8784H (366 days)");
  }

  @Test
  void a_null_anchor_or_instant_is_refused_naming_it() {
    assertThatThrownBy(() -> Slots.every(Duration.ofSeconds(1), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("anchor must not be null");
    Slots slots = Slots.every(Duration.ofSeconds(1), ANCHOR);
    assertThatThrownBy(() -> slots.nextAfter(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("after must not be null");
    assertThatThrownBy(() -> slots.latestAtOrBefore(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("at must not be null");
  }
}
