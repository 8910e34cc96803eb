package io.tenure.chaos;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The limits invariant (SPEC §12.1) on the limited queue: never more of its messages in flight than
 * {@link ChaosWorkload#LIMITS} allows, in all and per group (definition: {@link Checker}). Each
 * handling is a time its claim surely held: from its {@code HANDLING} event (after the claim
 * committed) to the earlier of its {@code HANDLED} event (before the outcome is written) and the
 * lease it was claimed with (nobody may take the message back before; an extension only makes the
 * claim last longer). So the count at any instant is at most what was really in flight, and more
 * than the limit is a real violation.
 */
final class CheckLimits {
  private static final Pattern DETAIL = Pattern.compile("group=(\\S+) leaseUntil=(\\S+)");

  /** The limits half of a report. */
  record Counts(long limitExceeded) {}

  /** One handling's sure time in flight, [from, to). */
  private record Held(
      long message, String node, @Nullable String group, Instant from, Instant to) {}

  private CheckLimits() {}

  static Counts check(List<HistoryEvent> events, CheckExamples examples) {
    Map<String, HistoryEvent> finished = new HashMap<>();
    for (HistoryEvent event : events) {
      if (event.kind() == HistoryEvent.Kind.HANDLED && limited(event)) {
        finished.putIfAbsent(event.message() + "/" + event.token(), event);
      }
    }
    List<Held> held = new ArrayList<>();
    for (HistoryEvent start : events) {
      if (start.kind() != HistoryEvent.Kind.HANDLING || !limited(start)) {
        continue;
      }
      Matcher detail = start.detail() == null ? null : DETAIL.matcher(start.detail());
      if (detail == null || !detail.matches()) {
        continue; // a handling recorded without its lease cannot be bounded: left out
      }
      Instant to = Instant.parse(detail.group(2));
      HistoryEvent end = finished.get(start.message() + "/" + start.token());
      if (end != null && end.at().isBefore(to)) {
        to = end.at();
      }
      if (to.isAfter(start.at())) {
        String group = detail.group(1).equals("null") ? null : detail.group(1);
        held.add(new Held(start.message(), start.node(), group, start.at(), to));
      }
    }
    return new Counts(exceeded(held, examples));
  }

  private static boolean limited(HistoryEvent event) {
    return ChaosWorkload.LIMITED.equals(event.queue());
  }

  /**
   * Sweeps the times in order, ends before starts at one instant (each time is half-open), and
   * counts each start that takes the queue or its group above its limit.
   */
  private static long exceeded(List<Held> held, CheckExamples examples) {
    record Edge(Instant at, boolean start, Held held) {}
    List<Edge> edges = new ArrayList<>();
    for (Held h : held) {
      edges.add(new Edge(h.from(), true, h));
      edges.add(new Edge(h.to(), false, h));
    }
    edges.sort(
        Comparator.comparing(Edge::at)
            .thenComparing(Edge::start)
            .thenComparingLong(e -> e.held().message()));
    int maxInFlight = ChaosWorkload.LIMITS.maxInFlight();
    int perGroup = ChaosWorkload.LIMITS.maxInFlightPerGroup();
    int inFlight = 0;
    Map<String, Integer> groups = new HashMap<>();
    long exceeded = 0;
    for (Edge edge : edges) {
      String group = edge.held().group();
      int step = edge.start() ? 1 : -1;
      inFlight += step;
      int inGroup = group == null ? 0 : groups.merge(group, step, Integer::sum);
      if (!edge.start()) {
        continue;
      }
      if (maxInFlight > 0 && inFlight > maxInFlight) {
        exceeded++;
        examples.add(
            "limitExceeded",
            inFlight
                + " messages of "
                + ChaosWorkload.LIMITED
                + " in flight at "
                + edge.at()
                + " (limit "
                + maxInFlight
                + "), the last message "
                + edge.held().message()
                + " on "
                + edge.held().node());
      } else if (perGroup > 0 && inGroup > perGroup) {
        exceeded++;
        examples.add(
            "limitExceeded",
            inGroup
                + " messages of group "
                + group
                + " in flight at "
                + edge.at()
                + " (limit "
                + perGroup
                + "), the last message "
                + edge.held().message()
                + " on "
                + edge.held().node());
      }
    }
    return exceeded;
  }
}
