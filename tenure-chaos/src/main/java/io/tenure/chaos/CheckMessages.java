package io.tenure.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The message invariants: lost, stranded, duplicates, FIFO per key, one in flight per key
 * (definitions: {@link Checker}).
 */
final class CheckMessages {
  /** The message half of a report. */
  record Counts(
      long enqueued,
      long handled,
      long dead,
      long lost,
      long stranded,
      long duplicateDeliveries,
      long fifoOrderViolations,
      long keyOverlaps) {}

  /**
   * A message as the history knows it: where it went, each time a handler began it and each time
   * one finished it, in order.
   */
  private record Message(
      long id,
      String queue,
      @Nullable String key,
      List<HistoryEvent> starts,
      List<HistoryEvent> handlings) {
    String describe() {
      String order =
          key == null ? "no key" : HistoryEvent.EXCLUSIVE.equals(key) ? "exclusive" : "key " + key;
      return "message " + id + " (" + queue + ", " + order + ")";
    }
  }

  private CheckMessages() {}

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Counts check(List<HistoryEvent> events, FinalState end, CheckExamples examples) {
    Map<Long, HistoryEvent> enqueued = new TreeMap<>();
    Map<Long, Message> handled = new TreeMap<>();
    Map<Long, List<HistoryEvent>> starts = new TreeMap<>();
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case ENQUEUED -> enqueued.putIfAbsent(event.message(), event);
        case HANDLING ->
            starts.computeIfAbsent(event.message(), id -> new ArrayList<>()).add(event);
        case HANDLED ->
            handled.computeIfAbsent(event.message(), id -> message(event)).handlings().add(event);
        default -> {}
      }
    }
    handled.values().forEach(m -> m.starts().addAll(starts.getOrDefault(m.id(), List.of())));
    // Queue and key as enqueued, if the enqueue was recorded: a handler's record is second-hand.
    enqueued
        .values()
        .forEach(e -> handled.computeIfPresent(e.message(), (id, m) -> withOrigin(m, e)));
    Outcomes outcomes = outcomes(enqueued, handled, end, examples);
    // Grouped once, for both key rules; each leaves the lists as they are.
    List<List<Message>> sequences = byQueueAndKey(handled.values());
    return new Counts(
        enqueued.size(),
        handled.size(),
        outcomes.dead,
        outcomes.lost,
        outcomes.stranded,
        duplicates(handled.values(), examples),
        fifoOrderViolations(sequences, examples),
        keyOverlaps(sequences, examples));
  }

  private static Message message(HistoryEvent event) {
    return new Message(
        event.message(), queueOf(event), event.key(), new ArrayList<>(), new ArrayList<>());
  }

  private static Message withOrigin(Message handled, HistoryEvent enqueue) {
    return new Message(
        handled.id(), queueOf(enqueue), enqueue.key(), handled.starts(), handled.handlings());
  }

  private static String queueOf(HistoryEvent event) {
    String queue = event.queue();
    if (queue == null) {
      throw new IllegalArgumentException("history event " + event.id() + " has no queue");
    }
    return queue;
  }

  private static final class Outcomes {
    long dead;
    long lost;
    long stranded;
  }

  private static Outcomes outcomes(
      Map<Long, HistoryEvent> enqueued,
      Map<Long, Message> handled,
      FinalState end,
      CheckExamples examples) {
    Outcomes outcomes = new Outcomes();
    for (HistoryEvent enqueue : enqueued.values()) {
      long id = enqueue.message();
      String status = end.statusOf(id);
      Message message = handled.getOrDefault(id, withOrigin(message(enqueue), enqueue));
      boolean wasHandled = handled.containsKey(id);
      if ("DEAD".equals(status)) {
        outcomes.dead++;
      } else if ("CANCELLED".equals(status)) {
        continue; // taken out of the queue on purpose: CheckCancels holds it to its cancel
      } else if (status == null || status.equals("DONE")) {
        if (!wasHandled) {
          outcomes.lost++;
          examples.add(
              "lost",
              message.describe()
                  + " never handled, final status "
                  + (status == null ? "deleted" : status));
        }
      } else if (!wasHandled) {
        outcomes.stranded++;
        examples.add("stranded", message.describe() + " never handled, still " + status);
      } else {
        examples.add(
            Checker.HANDLED_OUTCOME_NOT_WRITTEN,
            message.describe() + " handled, outcome not written (still " + status + ")");
      }
    }
    return outcomes;
  }

  private static long duplicates(Iterable<Message> handled, CheckExamples examples) {
    long duplicates = 0;
    for (Message message : handled) {
      int times = message.handlings().size();
      if (times > 1) {
        duplicates += times - 1;
        List<String> nodes = message.handlings().stream().map(HistoryEvent::node).toList();
        examples.add(
            "duplicateDeliveries",
            message.describe() + " handled " + times + " times, by " + String.join(", ", nodes));
      }
    }
    return duplicates;
  }

  /**
   * Per key, the messages in the order of their first handling; one is out of order if an older
   * message (lower id) of its key was first handled after it, i.e. if the smallest id among the
   * messages handled later is smaller than its own.
   */
  private static long fifoOrderViolations(List<List<Message>> sequences, CheckExamples examples) {
    long violations = 0;
    for (List<Message> sequence : sequences) {
      violations += outOfOrder(sequence, examples);
    }
    return violations;
  }

  /** The handled messages with an ordering key, one list per (queue, key), each in id order. */
  private static List<List<Message>> byQueueAndKey(Iterable<Message> handled) {
    Map<String, Map<String, List<Message>>> byQueueAndKey = new TreeMap<>();
    for (Message message : handled) {
      if (message.key() != null) {
        byQueueAndKey
            .computeIfAbsent(message.queue(), q -> new TreeMap<>())
            .computeIfAbsent(message.key(), k -> new ArrayList<>())
            .add(message);
      }
    }
    List<List<Message>> sequences = new ArrayList<>();
    byQueueAndKey.values().forEach(byKey -> sequences.addAll(byKey.values()));
    sequences.forEach(sequence -> sequence.sort(Comparator.comparingLong(Message::id)));
    return sequences;
  }

  /**
   * Per key, each message whose first start came before the end of an older message's finishing
   * handling: two messages of one key in flight at once. An older message's finishing handling is
   * the one of its latest claim (highest attempt, then latest), the only one whose done the store
   * may accept; a superseded claim's handler (a frozen node's) may still be running, and that is
   * not an overlap.
   */
  private static long keyOverlaps(List<List<Message>> sequences, CheckExamples examples) {
    long overlaps = 0;
    for (List<Message> sequence : sequences) {
      HistoryEvent latestFinish = null;
      Message finishing = null;
      for (Message message : sequence) {
        HistoryEvent firstStart = message.starts().stream().min(Checker.ORDER).orElse(null);
        if (firstStart != null
            && latestFinish != null
            && Checker.ORDER.compare(firstStart, latestFinish) < 0) {
          overlaps++;
          examples.add(
              "keyOverlaps",
              message.describe()
                  + " started on "
                  + firstStart.node()
                  + " while message "
                  + finishing.id()
                  + " was still being handled on "
                  + latestFinish.node()
                  + " (attempt "
                  + latestFinish.epoch()
                  + ")");
        }
        HistoryEvent finish = message.handlings().stream().max(BY_CLAIM).orElseThrow();
        if (latestFinish == null || Checker.ORDER.compare(finish, latestFinish) > 0) {
          latestFinish = finish;
          finishing = message;
        }
      }
    }
    return overlaps;
  }

  /** Handlings of one message by claim: attempt (recorded as the epoch), then time. */
  private static final Comparator<HistoryEvent> BY_CLAIM =
      Comparator.comparingLong(HistoryEvent::epoch).thenComparing(Checker.ORDER);

  private static long outOfOrder(List<Message> sequence, CheckExamples examples) {
    List<Message> byFirstHandling = new ArrayList<>(sequence);
    byFirstHandling.sort(
        (a, b) -> Checker.ORDER.compare(a.handlings().getFirst(), b.handlings().getFirst()));
    int n = byFirstHandling.size();
    long[] oldestHandledLater = new long[n];
    long oldest = Long.MAX_VALUE;
    for (int i = n - 1; i >= 0; i--) {
      oldestHandledLater[i] = oldest;
      oldest = Math.min(oldest, byFirstHandling.get(i).id());
    }
    long violations = 0;
    for (int i = 0; i < n; i++) {
      Message message = byFirstHandling.get(i);
      if (oldestHandledLater[i] < message.id()) {
        violations++;
        examples.add(
            "fifoOrderViolations", message.describe() + " handled before " + oldestHandledLater[i]);
      }
    }
    return violations;
  }
}
