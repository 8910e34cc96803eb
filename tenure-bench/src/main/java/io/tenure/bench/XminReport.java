package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.count;

import io.tenure.bench.XminFigures.Phase;
import io.tenure.bench.XminFigures.PhaseSummary;
import io.tenure.bench.XminFigures.Window;
import java.util.List;
import java.util.Locale;

/** The held-xmin run's tables: the timeline of windows, the phases, then the plans. */
final class XminReport {
  private XminReport() {}

  static void print(List<Window> windows, List<String> plans) {
    System.out.println();
    System.out.println(
        "| window (s) | phase | produced/s | completed/s | completion | pickup p50 | pickup p99"
            + " | backlog | dead tuples | table | claim index | vacuums |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (Window window : windows) {
      System.out.println(row(window));
    }
    System.out.println();
    System.out.println(
        "| phase | seconds | produced/s | completed/s | completion | pickup p50 | pickup p99"
            + " | dead tuples at end (most) | table at end | claim index at end |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (Phase phase : Phase.values()) {
      PhaseSummary s = XminFigures.summarize(phase, windows);
      if (s == null) {
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "| %s | %.0f | %s | %s | %.1f %% | %s | %s | %s (%s) | %s | %s |%n",
          phase.label,
          s.seconds(),
          count(s.producedPerSecond()),
          count(s.completedPerSecond()),
          s.completion() * 100,
          msOf(s.p50()),
          msOf(s.p99()),
          count(s.deadTuplesEnd()),
          count(s.deadTuplesMax()),
          mib(s.tableBytesEnd()),
          mib(s.claimIndexBytesEnd()));
    }
    for (String plan : plans) {
      System.out.println();
      System.out.print(plan);
    }
  }

  static String row(Window w) {
    return String.format(
        Locale.ROOT,
        "| %.0f–%.0f | %s | %s | %s | %.1f %% | %s | %s | %s | %s | %s | %s | %s |",
        w.startSeconds(),
        w.startSeconds() + w.seconds(),
        w.phase().label,
        count(w.produced() / w.seconds()),
        count(w.completed() / w.seconds()),
        w.completion() * 100,
        msOf(w.p50()),
        msOf(w.p99()),
        count(w.backlog()),
        count(w.deadTuples()),
        mib(w.tableBytes()),
        mib(w.claimIndexBytes()),
        w.vacuum());
  }

  private static String msOf(long nanos) {
    return String.format(Locale.ROOT, "%,.1f ms", nanos / 1e6);
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "?" : String.format(Locale.ROOT, "%,.1f MiB", bytes / (1024.0 * 1024));
  }
}
