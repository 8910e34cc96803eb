package io.tenure.test;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.QueueStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/**
 * The kit's assertions. A failure says what was expected and lists what the queue or the store
 * actually holds, message by message, with the clock's now, so a delayed or retried message
 * explains itself.
 */
final class MessageAssertions {
  /** Messages listed in one failure message; the rest are counted. */
  static final int MAX_LISTED = 20;

  private static final int MAX_TEXT = 100;
  private static final int PAGE = 10_000;
  private static final Set<MessageStatus> ENQUEUED =
      Set.of(MessageStatus.PENDING, MessageStatus.INFLIGHT);

  private final QueueStore store;
  private final Schedules schedules;
  private final Supplier<Instant> now;

  MessageAssertions(QueueStore store, Schedules schedules, Supplier<Instant> now) {
    this.store = store;
    this.schedules = schedules;
    this.now = now;
  }

  /**
   * @param expected how many must match, or -1 for at least one
   * @return the matching messages waiting or in flight, oldest first
   */
  List<QueueMessage> enqueued(
      String queue, int expected, Predicate<? super QueueMessage> matching) {
    return expect(queue, ENQUEUED, "waiting or in flight", expected, matching);
  }

  /**
   * @return the matching dead letters, oldest first; at least one
   */
  List<QueueMessage> deadLettered(String queue, Predicate<? super QueueMessage> matching) {
    return expect(queue, Set.of(MessageStatus.DEAD), "dead-lettered", -1, matching);
  }

  /**
   * @return the schedule, whose next slot is {@code expected}
   */
  ScheduleInfo scheduledNext(String name, Instant expected) {
    ScheduleInfo info =
        schedules
            .find(name)
            .orElseThrow(
                () ->
                    new AssertionFailedError(
                        "Expected schedule '"
                            + name
                            + "' to fire next at "
                            + expected
                            + ", but there is no schedule of that name. "
                            + listSchedules()));
    if (info.nextFireAt().equals(expected)) {
      return info;
    }
    throw new AssertionFailedError(
        "Expected schedule '"
            + name
            + "' to fire next at "
            + expected
            + ", but it fires next at "
            + info.nextFireAt()
            + (info.due() ? " (due now: kit.fireDueSchedules() fires it)" : "")
            + ".\n  "
            + describe(info),
        expected,
        info.nextFireAt());
  }

  private List<QueueMessage> expect(
      String queue,
      Set<MessageStatus> statuses,
      String state,
      int expected,
      Predicate<? super QueueMessage> matching) {
    List<QueueMessage> all = all(queue);
    List<QueueMessage> found =
        all.stream().filter(m -> statuses.contains(m.status())).filter(matching::test).toList();
    if (expected < 0 ? !found.isEmpty() : found.size() == expected) {
      return found;
    }
    String wanted =
        expected < 0
            ? "at least one message"
            : expected + (expected == 1 ? " message" : " messages");
    throw new AssertionFailedError(
        "Expected "
            + wanted
            + " of queue '"
            + queue
            + "' "
            + state
            + " matching "
            + Messages.describe(matching)
            + ", but found "
            + found.size()
            + ".\n"
            + holdings(queue, all));
  }

  /** Every message of the queue, whatever its status, oldest first. */
  List<QueueMessage> all(String queue) {
    List<QueueMessage> all = new ArrayList<>();
    long after = 0;
    while (true) {
      List<QueueMessage> page =
          store.list(new MessageQuery(queue, null, null, null, null, after, PAGE));
      all.addAll(page);
      if (page.size() < PAGE) {
        return all;
      }
      after = page.getLast().id();
    }
  }

  private String holdings(String queue, List<QueueMessage> all) {
    String clock = " (now " + now.get() + ")";
    if (all.isEmpty()) {
      return "Queue '" + queue + "' holds no messages" + clock + ".";
    }
    StringBuilder text =
        new StringBuilder("Queue '")
            .append(queue)
            .append("' holds ")
            .append(all.size())
            .append(all.size() == 1 ? " message" : " messages")
            .append(clock)
            .append(':');
    all.stream().limit(MAX_LISTED).forEach(m -> text.append("\n  ").append(describe(m)));
    if (all.size() > MAX_LISTED) {
      text.append("\n  ... and ").append(all.size() - MAX_LISTED).append(" more");
    }
    return text.toString();
  }

  /**
   * @return e.g. {@code #3 PENDING, attempt 1 of 5, available 2026-01-01T00:00:02Z, key 'user-7',
   *     last error 'java.lang.IllegalStateException: smtp down': text 'welcome user 7'}
   */
  static String describe(QueueMessage m) {
    StringBuilder text =
        new StringBuilder("#")
            .append(m.id())
            .append(' ')
            .append(m.status())
            .append(", attempt ")
            .append(m.attempts())
            .append(" of ")
            .append(m.maxAttempts());
    if (m.status() == MessageStatus.PENDING) {
      text.append(", available ").append(m.availableAt());
    }
    if (m.key() != null) {
      text.append(", key '").append(m.key()).append('\'');
    }
    if (m.group() != null) {
      text.append(", group '").append(m.group()).append('\'');
    }
    if (m.priority() != 0) {
      text.append(", priority ").append(m.priority());
    }
    if (m.lastError() != null) {
      text.append(", last error '").append(shorten(m.lastError())).append('\'');
    }
    return text.append(": ").append(payload(m)).toString();
  }

  private static String payload(QueueMessage m) {
    String type = m.contentType();
    if (type.startsWith("text/") || type.contains("json") || type.contains("xml")) {
      return "text '" + shorten(Messages.payloadText(m)) + "'";
    }
    return m.payload().length + " bytes of " + type;
  }

  private static String shorten(String text) {
    return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "...";
  }

  private static String describe(ScheduleInfo info) {
    return "Schedule '"
        + info.name()
        + "': "
        + info.schedule()
        + (info.paused() ? ", paused" : ", running")
        + ", fired "
        + info.fired()
        + ", skipped "
        + info.skipped()
        + (info.lastSlotAt() != null ? ", last slot " + info.lastSlotAt() : "")
        + "; now "
        + info.readAt();
  }

  private String listSchedules() {
    List<ScheduleInfo> all = schedules.list();
    if (all.isEmpty()) {
      return "The store has no schedules.";
    }
    StringBuilder text = new StringBuilder("The store has:");
    all.stream()
        .limit(MAX_LISTED)
        .forEach(
            i -> text.append("\n  '").append(i.name()).append("' next at ").append(i.nextFireAt()));
    if (all.size() > MAX_LISTED) {
      text.append("\n  ... and ").append(all.size() - MAX_LISTED).append(" more");
    }
    return text.toString();
  }
}
