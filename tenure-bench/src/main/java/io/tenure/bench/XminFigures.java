package io.tenure.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The arithmetic of the held-xmin benchmark (issue 20, part 4), apart from any database: windows
 * reduced to phases, the recovery window and the verdict against the goals. Pure, so it is
 * unit tested.
 */
final class XminFigures {
  /** Goal: completion rate while xmin is held, as a share of the clean phase's. */
  static final double GOAL_COMPLETION = 0.90;

  /** Goal: pickup p99 while xmin is held, at most this many times the clean phase's. */
  static final double GOAL_P99 = 2.0;

  /** Goal: from the release until the first window back within the clean band, in seconds. */
  static final double GOAL_RECOVERY_SECONDS = 60;

  private XminFigures() {}

  /** The benchmark's phases, in order. */
  enum Phase {
    /** Producer and consumer running before the measure begins; in no summary. */
    SETTLE("settle"),
    CLEAN("clean"),
    HELD("xmin held"),
    RECOVERY("recovery");

    final String label;

    Phase(String label) {
      this.label = label;
    }
  }

  /**
   * One window of the timeline: what was produced and completed in it and the pickup waits of the
   * handlers that started in it (nanoseconds), with the table's state read at its end.
   *
   * @param startSeconds seconds since the first phase began
   * @param backlog produced so far minus completed so far, at the window's end
   * @param vacuum the table's vacuums so far and the one running at the window's end, in words
   */
  record Window(
      Phase phase,
      double startSeconds,
      double seconds,
      long produced,
      long completed,
      long[] waits,
      long deadTuples,
      long tableBytes,
      long claimIndexBytes,
      long backlog,
      String vacuum) {

    double completion() {
      return produced == 0 ? 1.0 : (double) completed / produced;
    }

    long p50() {
      return percentile(sorted(waits), 50);
    }

    long p99() {
      return percentile(sorted(waits), 99);
    }
  }

  /** A phase's windows taken together; dead tuples and sizes are the last window's and the most. */
  record PhaseSummary(
      Phase phase,
      double seconds,
      long produced,
      long completed,
      long p50,
      long p99,
      long deadTuplesEnd,
      long deadTuplesMax,
      long tableBytesEnd,
      long claimIndexBytesEnd) {

    double producedPerSecond() {
      return produced / seconds;
    }

    double completedPerSecond() {
      return completed / seconds;
    }

    double completion() {
      return produced == 0 ? 1.0 : (double) completed / produced;
    }
  }

  /**
   * @return the windows of {@code phase} taken together, or null if it has none
   */
  static PhaseSummary summarize(Phase phase, List<Window> windows) {
    List<Window> of = windows.stream().filter(w -> w.phase() == phase).toList();
    if (of.isEmpty()) {
      return null;
    }
    double seconds = of.stream().mapToDouble(Window::seconds).sum();
    long produced = of.stream().mapToLong(Window::produced).sum();
    long completed = of.stream().mapToLong(Window::completed).sum();
    long[] waits = of.stream().flatMapToLong(w -> Arrays.stream(w.waits())).sorted().toArray();
    Window last = of.get(of.size() - 1);
    return new PhaseSummary(
        phase,
        seconds,
        produced,
        completed,
        percentile(waits, 50),
        percentile(waits, 99),
        last.deadTuples(),
        of.stream().mapToLong(Window::deadTuples).max().orElse(0),
        last.tableBytes(),
        last.claimIndexBytes());
  }

  /**
   * Whether a window is back within the clean band: its completion rate at least {@link
   * #GOAL_COMPLETION} of the clean phase's, its pickup p99 at most {@link #GOAL_P99} times the
   * clean phase's (a window in which nothing was picked up does not count as back).
   */
  static boolean withinCleanBand(Window window, PhaseSummary clean) {
    return window.waits().length > 0
        && window.completion() >= GOAL_COMPLETION * clean.completion()
        && window.p99() <= GOAL_P99 * clean.p99();
  }

  /**
   * @return seconds from the release (the recovery phase's start) to the end of the first recovery
   *     window back within the clean band, or -1 if none is
   */
  static double recoverySeconds(List<Window> windows, PhaseSummary clean) {
    double released = -1;
    for (Window window : windows) {
      if (window.phase() != Phase.RECOVERY) {
        continue;
      }
      if (released < 0) {
        released = window.startSeconds();
      }
      if (withinCleanBand(window, clean)) {
        return window.startSeconds() + window.seconds() - released;
      }
    }
    return -1;
  }

  /** The verdict against the three goals. */
  record Verdict(
      double completionShare, double p99Ratio, double recoverySeconds, boolean recoveryMeasured) {
    boolean completionMet() {
      return completionShare >= GOAL_COMPLETION;
    }

    boolean p99Met() {
      return p99Ratio <= GOAL_P99;
    }

    boolean recoveryMet() {
      return recoveryMeasured && recoverySeconds >= 0 && recoverySeconds <= GOAL_RECOVERY_SECONDS;
    }

    boolean met() {
      return completionMet() && p99Met() && recoveryMet();
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "Verdict: completion while held %.0f %% of clean (goal at least %.0f %%): %s;"
              + " pickup p99 while held %.2fx clean (goal at most %.1fx): %s;"
              + " recovery %s (goal at most %.0f s): %s. Goal %s.",
          completionShare * 100,
          GOAL_COMPLETION * 100,
          completionMet() ? "met" : "NOT met",
          p99Ratio,
          GOAL_P99,
          p99Met() ? "met" : "NOT met",
          !recoveryMeasured
              ? "not measured"
              : recoverySeconds < 0
                  ? "not within the recovery phase"
                  : String.format(Locale.ROOT, "%.0f s", recoverySeconds),
          GOAL_RECOVERY_SECONDS,
          recoveryMet() ? "met" : "NOT met",
          met() ? "met" : "NOT met");
    }
  }

  static Verdict verdict(List<Window> windows) {
    PhaseSummary clean = summarize(Phase.CLEAN, windows);
    PhaseSummary held = summarize(Phase.HELD, windows);
    if (clean == null || held == null) {
      throw new IllegalArgumentException("a verdict needs a clean and a held phase");
    }
    boolean recovery = windows.stream().anyMatch(w -> w.phase() == Phase.RECOVERY);
    return new Verdict(
        held.completion() / clean.completion(),
        clean.p99() == 0 ? Double.POSITIVE_INFINITY : (double) held.p99() / clean.p99(),
        recovery ? recoverySeconds(windows, clean) : -1,
        recovery);
  }

  static long[] sorted(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy;
  }

  /** Nearest rank of sorted values; 0 for none. */
  static long percentile(long[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  /**
   * How many messages a producer of {@code perSecond} owes at {@code elapsedNanos} after it began,
   * having sent {@code sent}: the schedule is kept from the start, so a slow enqueue is caught up.
   */
  static long owed(double perSecond, long elapsedNanos, long sent) {
    return Math.max(0, (long) Math.floor(perSecond * elapsedNanos / 1e9) - sent);
  }
}
