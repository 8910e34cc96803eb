package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Tenure;
import io.tenure.Ticker;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The test clock on the in-memory store: one time for the database and the ticker, forward only.
 */
@TenureTest
class TestClockTest {
  @Test
  void it_starts_at_the_default_start_and_drives_the_database_clock_and_the_ticker_together(
      Tenure tenure, TestClock clock) {
    Ticker ticker = clock.ticker();
    long before = ticker.read();
    assertThat(clock.movable()).isTrue();
    assertThat(clock.now()).isEqualTo(TestClock.DEFAULT_START);
    assertThat(tenure.store().now()).isEqualTo(TestClock.DEFAULT_START);

    assertThat(clock.advance(Duration.ofMillis(1500)))
        .isEqualTo(Instant.parse("2026-01-01T00:00:01.5Z"));
    clock.set(Instant.parse("2026-01-01T01:00:00Z"));

    assertThat(tenure.store().now()).isEqualTo(Instant.parse("2026-01-01T01:00:00Z"));
    assertThat(ticker.read() - before).isEqualTo(Duration.ofHours(1).toNanos());
    assertThat(clock.advance(Duration.ZERO)).isEqualTo(clock.now());
  }

  @Test
  void it_stands_still_until_the_test_moves_it(TestClock clock) throws InterruptedException {
    long ticks = clock.ticker().read();
    Thread.sleep(5); // the one real wait here: proving that real time does not move it
    assertThat(clock.now()).isEqualTo(TestClock.DEFAULT_START);
    assertThat(clock.ticker().read()).isEqualTo(ticks);
  }

  @Test
  void a_negative_or_missing_step_and_a_step_back_are_refused_and_move_nothing(TestClock clock) {
    clock.advance(Duration.ofMinutes(1));

    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the test clock only moves forward; cannot advance it by PT-1S");
    assertThatThrownBy(() -> clock.advance(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duration to advance by must not be null");
    assertThatThrownBy(() -> clock.set(TestClock.DEFAULT_START))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the test clock only moves forward: it is 2026-01-01T00:01:00Z, cannot set it back to"
                + " 2026-01-01T00:00:00Z");
    assertThatThrownBy(() -> clock.set(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> clock.advance(Duration.ofDays(365L * 300)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("past what the test clock can count");

    assertThat(clock.now()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
  }
}
