package io.tenure.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The leader invariants (SPEC §4.4, §4.7): never two nodes leading at once, and one leader change
 * for one pause of the leader. Definitions: {@link Checker}.
 */
final class CheckLeaders {
  /**
   * Overlaps shorter than this are not counted: a sample's time is its row's database time less the
   * delay the node measured, which is off by the write's trip to the database.
   */
  static final Duration TOLERANCE = Duration.ofMillis(50);

  /** How long after a paused leader resumes its pause may still cause a leader change. */
  static final Duration SETTLE = Duration.ofSeconds(5);

  record Counts(long overlaps, long bounces) {}

  /** One node's belief that it leads, from its first to its last sample. */
  private record Interval(String node, long epoch, Instant from, Instant to) {}

  private CheckLeaders() {}

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Counts check(List<HistoryEvent> events, CheckExamples examples) {
    return new Counts(overlaps(intervals(events), examples), bounces(events, examples));
  }

  /**
   * Each node's intervals. One that never ended closes at the node's next kill or stop (the process
   * ended), its next {@code LEADING}, or the last event of the run.
   */
  private static List<Interval> intervals(List<HistoryEvent> events) {
    List<Interval> closed = new ArrayList<>();
    Map<String, HistoryEvent> open = new HashMap<>();
    Instant last = events.isEmpty() ? Instant.EPOCH : events.getLast().at();
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case LEADING -> {
          HistoryEvent before = open.put(event.node(), event);
          if (before != null) {
            closed.add(interval(before, seen(event)));
          }
        }
        case LEADING_ENDED -> {
          HistoryEvent start = open.get(event.node());
          if (start != null && start.epoch() == event.epoch()) {
            open.remove(event.node());
            closed.add(interval(start, seen(event)));
          }
        }
        case FAULT -> {
          if (Checker.endsProcess(event)) {
            HistoryEvent start = open.remove(event.node());
            if (start != null) {
              closed.add(interval(start, event.at()));
            }
          }
        }
        default -> {}
      }
    }
    open.values().forEach(start -> closed.add(interval(start, last)));
    return closed;
  }

  private static Interval interval(HistoryEvent start, Instant to) {
    Instant from = seen(start);
    return new Interval(start.node(), start.epoch(), from, to.isBefore(from) ? from : to);
  }

  /** When the node saw what the event records: its row's time less the delay it measured. */
  private static Instant seen(HistoryEvent event) {
    return event.at().minusMillis(event.message());
  }

  private static long overlaps(List<Interval> intervals, CheckExamples examples) {
    long count = 0;
    for (int i = 0; i < intervals.size(); i++) {
      for (int j = i + 1; j < intervals.size(); j++) {
        Interval a = intervals.get(i);
        Interval b = intervals.get(j);
        if (a.node().equals(b.node())) {
          continue;
        }
        Instant from = a.from().isAfter(b.from()) ? a.from() : b.from();
        Instant to = a.to().isBefore(b.to()) ? a.to() : b.to();
        if (Duration.between(from, to).compareTo(TOLERANCE) > 0) {
          count++;
          examples.add(
              "leaderOverlaps",
              a.node()
                  + " (epoch "
                  + a.epoch()
                  + ") and "
                  + b.node()
                  + " (epoch "
                  + b.epoch()
                  + ") both led for "
                  + Duration.between(from, to).toMillis()
                  + " ms from "
                  + from);
        }
      }
    }
    return count;
  }

  /**
   * Pauses of the leader after which the lease changed hands more than once: for each pause whose
   * target the last {@code LEADER} event named, the {@code LEADER} events of new epochs from the
   * pause until {@link #SETTLE} after its resume, if no other fault began in that window.
   */
  private static long bounces(List<HistoryEvent> events, CheckExamples examples) {
    long count = 0;
    @Nullable HistoryEvent leader = null;
    for (int i = 0; i < events.size(); i++) {
      HistoryEvent event = events.get(i);
      if (event.kind() == HistoryEvent.Kind.LEADER) {
        leader = event;
      } else if (event.kind() == HistoryEvent.Kind.FAULT
          && Checker.isPause(event)
          && leader != null
          && leader.node().equals(event.node())) {
        Set<Long> changes = changesAfter(events, i, leader.epoch());
        if (changes != null && changes.size() > 1) {
          count++;
          examples.add(
              "leaderBounces",
              "leader "
                  + event.node()
                  + " (epoch "
                  + leader.epoch()
                  + ") paused at "
                  + event.at()
                  + "; the lease then changed hands "
                  + changes.size()
                  + " times: epochs "
                  + changes);
        }
      }
    }
    return count;
  }

  /**
   * The new epochs promoted in the pause's window; null if another fault began in it or it never
   * resumed.
   */
  private static @Nullable Set<Long> changesAfter(
      List<HistoryEvent> events, int pause, long epoch) {
    HistoryEvent fault = events.get(pause);
    @Nullable Instant until = null;
    Set<Long> epochs = new HashSet<>();
    for (int j = pause + 1; j < events.size(); j++) {
      HistoryEvent event = events.get(j);
      if (until != null && event.at().isAfter(until)) {
        return epochs;
      }
      switch (event.kind()) {
        case FAULT -> {
          return null;
        }
        case FAULT_END -> {
          if (until == null && event.node().equals(fault.node())) {
            until = event.at().plus(SETTLE);
          }
        }
        case LEADER -> {
          if (event.epoch() > epoch) {
            epochs.add(event.epoch());
          }
        }
        default -> {}
      }
    }
    return until == null ? null : epochs;
  }
}
