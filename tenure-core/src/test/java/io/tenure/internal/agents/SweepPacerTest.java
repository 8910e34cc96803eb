package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * When the node sweeps and how much it may do (SPEC §5.4), with wake-ups: times are passed in, in
 * milliseconds here, so nothing sleeps.
 */
class SweepPacerTest {
  private static final long MS = 1_000_000L;
  private static final int CAP = 50;

  private final SweepPacer pacer = new SweepPacer(Duration.ofSeconds(1), CAP);

  /** One sweep from {@code begin} to {@code end} (ms) that takes {@code actions}. */
  private int sweep(long begin, long end, int actions) {
    int allowance = pacer.begin(begin * MS);
    pacer.ended(begin * MS, end * MS, Math.min(actions, allowance));
    return allowance;
  }

  private long nextAt(long now) {
    return pacer.nextAt(now * MS) / MS;
  }

  @Test
  void
      the_first_sweep_runs_at_once_and_an_undisturbed_one_begins_an_interval_after_the_previous_began() {
    assertThat(nextAt(0)).isZero();
    assertThat(sweep(0, 300, 50)).isEqualTo(CAP);

    assertThat(nextAt(300)).isEqualTo(1_000);
    assertThat(sweep(1_000, 1_100, 50))
        .as("an undisturbed sweep gets the whole cap")
        .isEqualTo(CAP);
  }

  @Test
  void a_slow_sweep_is_followed_by_a_tenth_of_an_interval_of_pause() {
    sweep(0, 1_500, 0);

    assertThat(nextAt(1_500)).isEqualTo(1_600);
  }

  @Test
  void a_wake_up_after_an_idle_sweep_runs_the_next_sweep_at_once_with_the_whole_cap() {
    sweep(0, 20, 0);

    pacer.wake();

    assertThat(nextAt(400)).isEqualTo(400);
    assertThat(sweep(400, 450, 50)).isEqualTo(CAP);
    assertThat(nextAt(450))
        .as("the wake-up was consumed; next a whole interval on")
        .isEqualTo(1_400);
  }

  @Test
  void a_woken_sweep_may_take_only_what_the_sweeps_of_the_last_interval_left_of_the_cap() {
    sweep(0, 20, 30);
    pacer.wake();

    assertThat(nextAt(400)).isEqualTo(400);
    assertThat(sweep(400, 420, 50)).isEqualTo(20);
    pacer.wake();

    assertThat(nextAt(600))
        .as("nothing left until the first sweep is an interval old")
        .isEqualTo(1_000);
    assertThat(sweep(1_000, 1_010, 50)).as("the second sweep's 20 still count").isEqualTo(30);
  }

  @Test
  void a_wake_up_never_delays_the_undisturbed_sweep() {
    sweep(0, 20, 50);
    sweep(1_000, 1_020, 50);
    pacer.wake();

    assertThat(nextAt(1_100)).isEqualTo(2_000);
    assertThat(sweep(2_000, 2_010, 50)).isEqualTo(CAP);
  }

  @Test
  void a_woken_sweep_begins_a_tenth_of_an_interval_after_the_previous_one_ended() {
    sweep(0, 20, 0);
    pacer.wake();

    assertThat(nextAt(50)).isEqualTo(120);
  }

  @Test
  void wake_ups_heard_during_a_sweep_lead_to_one_more_sweep_and_no_more() {
    int allowance = pacer.begin(0);
    pacer.wake();
    pacer.wake();
    pacer.ended(0, 20 * MS, 0);
    assertThat(allowance).isEqualTo(CAP);

    assertThat(nextAt(20)).isEqualTo(120);
    sweep(120, 130, 0);
    assertThat(nextAt(130)).isEqualTo(1_120);
  }

  @Test
  void with_no_cap_every_sweep_may_take_any_number_and_wake_ups_still_keep_their_distance() {
    SweepPacer uncapped = new SweepPacer(Duration.ofSeconds(1), 0);
    assertThat(uncapped.begin(0)).isEqualTo(Integer.MAX_VALUE);
    uncapped.ended(0, 10 * MS, 5_000);
    uncapped.wake();

    assertThat(uncapped.nextAt(10 * MS)).isEqualTo(110 * MS);
    assertThat(uncapped.begin(110 * MS)).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void bad_input_is_refused_with_a_clear_error() {
    assertThatThrownBy(() -> new SweepPacer(Duration.ZERO, CAP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("agentSweepInterval must be positive");
    assertThatThrownBy(() -> pacer.ended(0, 0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot take -1 actions");
  }

  /**
   * Whatever the wake-ups, a node takes at most the cap within any sweep interval, and sweeps never
   * begin closer than a tenth of an interval after the previous one ended.
   */
  @Property
  void at_most_the_cap_within_any_interval_and_a_pause_between_sweeps(
      @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 1_500) Integer> wakeGaps,
      @ForAll @IntRange(min = 0, max = 400) int duration,
      @ForAll @IntRange(min = 0, max = 80) int backlog) {
    SweepPacer paced = new SweepPacer(Duration.ofSeconds(1), CAP);
    List<long[]> sweeps = new ArrayList<>();
    long now = 0;
    long nextWake = wakeGaps.get(0);
    int wakes = 1;
    for (int i = 0; i < 200; i++) {
      // As PacedSweeps does: a wake-up while waiting brings the planned sweep forward if it may.
      long planned = paced.nextAt(now * MS) / MS;
      while (nextWake < planned && wakes < wakeGaps.size()) {
        paced.wake();
        planned = Math.min(planned, paced.nextAt(nextWake * MS) / MS);
        nextWake += wakeGaps.get(wakes++);
      }
      long begin = Math.max(now, planned);
      int actions = Math.min(paced.begin(begin * MS), backlog);
      long end = begin + duration;
      // Wake-ups during the sweep are only heard.
      while (nextWake <= end && wakes < wakeGaps.size()) {
        paced.wake();
        nextWake += wakeGaps.get(wakes++);
      }
      paced.ended(begin * MS, end * MS, actions);
      sweeps.add(new long[] {begin, end, actions});
      now = end;
    }
    for (int i = 0; i < sweeps.size(); i++) {
      long windowEnd = sweeps.get(i)[0];
      long taken =
          sweeps.stream()
              .filter(s -> s[0] > windowEnd - 1_000 && s[0] <= windowEnd)
              .mapToLong(s -> s[2])
              .sum();
      assertThat(taken).as("actions in the interval before sweep %d", i).isLessThanOrEqualTo(CAP);
      if (i > 0) {
        assertThat(windowEnd - sweeps.get(i - 1)[1])
            .as("pause before sweep %d", i)
            .isGreaterThanOrEqualTo(100);
      }
    }
  }

  @Test
  void a_woken_sweep_waits_for_the_sweep_that_used_the_cap_not_for_an_idle_one_before_it() {
    sweep(0, 10, 0);
    sweep(500, 510, CAP);

    pacer.wake();
    // The idle sweep at 0 freeing nothing, the cap comes back when the one at 500 stops counting.
    assertThat(nextAt(600)).isEqualTo(1_500);
  }

  @Test
  void times_are_a_monotonic_tickers_and_may_be_negative() {
    SweepPacer early = new SweepPacer(Duration.ofSeconds(1), CAP);
    long t0 = -10_000 * MS;
    assertThat(early.nextAt(t0)).as("the first sweep runs at once").isLessThanOrEqualTo(t0);
    early.ended(t0, t0 + 10 * MS, 0);

    early.wake();
    assertThat(early.nextAt(t0 + 20 * MS))
        .as("a woken sweep after an idle one waits only the pause after it")
        .isEqualTo(t0 + 110 * MS);
  }
}
