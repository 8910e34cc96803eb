package io.tenure.chaos;

import java.util.List;
import java.util.Set;

/**
 * The cancel invariant (SPEC §12.3): a message the store said it cancelled ends {@code CANCELLED};
 * if it ends done (or deleted, as a done message of the run's unordered queue is), an owner's done
 * was accepted over the cancel (definition: {@link Checker}).
 */
final class CheckCancels {
  private static final Set<String> MADE = Set.of("CANCELLED", "CANCELLED_RUNNING");

  /** The cancels half of a report. */
  record Counts(long cancels, long cancelledCompleted) {}

  private CheckCancels() {}

  static Counts check(List<HistoryEvent> events, FinalState end, CheckExamples examples) {
    long cancels = 0;
    long completed = 0;
    for (HistoryEvent event : events) {
      if (event.kind() != HistoryEvent.Kind.CANCELLED || !MADE.contains(event.detail())) {
        continue;
      }
      cancels++;
      String status = end.statusOf(event.message());
      if (!"CANCELLED".equals(status)) {
        completed++;
        examples.add(
            "cancelledCompleted",
            "message "
                + event.message()
                + " ("
                + event.queue()
                + ") cancelled ("
                + event.detail()
                + ") but its final status is "
                + (status == null ? "deleted" : status));
      }
    }
    return new Counts(cancels, completed);
  }
}
