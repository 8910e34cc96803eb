package io.tenure.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.bench.XminFigures.Phase;
import io.tenure.bench.XminFigures.PhaseSummary;
import io.tenure.bench.XminFigures.Verdict;
import io.tenure.bench.XminFigures.Window;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class XminFiguresTest {
  private static final long MS = 1_000_000;

  /** A 10 s window starting at {@code start} whose handlers all waited {@code waitMs}. */
  private static Window window(
      Phase phase, double start, long produced, long completed, long waitMs) {
    long[] waits = new long[(int) completed];
    java.util.Arrays.fill(waits, waitMs * MS);
    return new Window(phase, start, 10, produced, completed, waits, 0, 0, 0, 0, "");
  }

  @Test
  void a_phase_sums_its_windows_and_takes_percentiles_over_all_their_waits() {
    List<Window> windows =
        List.of(
            window(Phase.SETTLE, 0, 100, 1, 5_000),
            window(Phase.CLEAN, 10, 100, 100, 2),
            new Window(Phase.CLEAN, 20, 10, 100, 80, fill(80, 4), 7, 1024, 512, 20, ""));
    PhaseSummary clean = XminFigures.summarize(Phase.CLEAN, windows);

    assertThat(clean.seconds()).isEqualTo(20);
    assertThat(clean.produced()).isEqualTo(200);
    assertThat(clean.completed()).isEqualTo(180);
    assertThat(clean.completion()).isEqualTo(0.9);
    assertThat(clean.completedPerSecond()).isEqualTo(9);
    assertThat(clean.p50()).isEqualTo(2 * MS);
    assertThat(clean.p99()).isEqualTo(4 * MS);
    assertThat(clean.deadTuplesEnd()).isEqualTo(7);
    assertThat(clean.tableBytesEnd()).isEqualTo(1024);
    assertThat(XminFigures.summarize(Phase.HELD, windows)).isNull();
  }

  @Test
  void recovery_ends_with_the_first_window_back_in_the_clean_band() {
    List<Window> windows = new ArrayList<>();
    windows.add(window(Phase.CLEAN, 0, 100, 100, 5));
    windows.add(window(Phase.HELD, 10, 100, 50, 900));
    windows.add(window(Phase.RECOVERY, 20, 100, 150, 400)); // backlog draining, p99 high
    windows.add(window(Phase.RECOVERY, 30, 100, 100, 10)); // p99 2x clean: back
    windows.add(window(Phase.RECOVERY, 40, 100, 100, 5));

    PhaseSummary clean = XminFigures.summarize(Phase.CLEAN, windows);
    assertThat(XminFigures.withinCleanBand(windows.get(2), clean)).isFalse();
    assertThat(XminFigures.withinCleanBand(windows.get(3), clean)).isTrue();
    assertThat(XminFigures.recoverySeconds(windows, clean)).isEqualTo(20);

    Verdict verdict = XminFigures.verdict(windows);
    assertThat(verdict.completionShare()).isEqualTo(0.5);
    assertThat(verdict.p99Ratio()).isEqualTo(180);
    assertThat(verdict.recoverySeconds()).isEqualTo(20);
    assertThat(verdict.completionMet()).isFalse();
    assertThat(verdict.p99Met()).isFalse();
    assertThat(verdict.recoveryMet()).isTrue();
    assertThat(verdict.met()).isFalse();
    assertThat(verdict.line()).contains("50 % of clean", "180.00x clean", "recovery 20 s");
  }

  @Test
  void a_window_with_nothing_picked_up_or_too_few_completed_is_not_back() {
    List<Window> windows =
        List.of(
            window(Phase.CLEAN, 0, 100, 100, 5),
            window(Phase.HELD, 10, 100, 95, 6),
            window(Phase.RECOVERY, 20, 100, 0, 0),
            window(Phase.RECOVERY, 30, 100, 89, 5));
    PhaseSummary clean = XminFigures.summarize(Phase.CLEAN, windows);

    assertThat(XminFigures.recoverySeconds(windows, clean)).isEqualTo(-1);
    Verdict verdict = XminFigures.verdict(windows);
    assertThat(verdict.completionMet()).isTrue();
    assertThat(verdict.p99Met()).isTrue();
    assertThat(verdict.recoveryMet()).isFalse();
    assertThat(verdict.line()).contains("not within the recovery phase");
  }

  @Test
  void a_held_phase_as_good_as_clean_meets_every_goal() {
    List<Window> windows =
        List.of(
            window(Phase.CLEAN, 0, 100, 100, 5),
            window(Phase.HELD, 10, 100, 90, 10),
            window(Phase.RECOVERY, 20, 100, 100, 5));

    Verdict verdict = XminFigures.verdict(windows);
    assertThat(verdict.completionShare()).isEqualTo(0.9);
    assertThat(verdict.p99Ratio()).isEqualTo(2.0);
    assertThat(verdict.recoverySeconds()).isEqualTo(10);
    assertThat(verdict.met()).isTrue();
  }

  @Test
  void a_verdict_needs_a_clean_and_a_held_phase() {
    assertThatThrownBy(() -> XminFigures.verdict(List.of(window(Phase.CLEAN, 0, 1, 1, 1))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void percentiles_are_nearest_rank_and_zero_for_none() {
    long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(XminFigures.percentile(sorted, 50)).isEqualTo(5);
    assertThat(XminFigures.percentile(sorted, 99)).isEqualTo(10);
    assertThat(XminFigures.percentile(new long[] {7}, 99)).isEqualTo(7);
    assertThat(XminFigures.percentile(new long[0], 50)).isZero();
  }

  @Test
  void the_producer_keeps_its_schedule_from_the_start() {
    long second = 1_000_000_000L;
    assertThat(XminFigures.owed(1000, second / 50, 0)).isEqualTo(20);
    assertThat(XminFigures.owed(1000, second, 990)).isEqualTo(10); // a slow enqueue is caught up
    assertThat(XminFigures.owed(1000, second, 1200)).isZero();
    assertThat(XminFigures.owed(70.5, 2 * second, 0)).isEqualTo(141);
  }

  private static long[] fill(int n, long ms) {
    long[] waits = new long[n];
    java.util.Arrays.fill(waits, ms * MS);
    return waits;
  }
}
