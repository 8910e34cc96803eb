package io.tenure.chaos;

import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The schedule invariants (SPEC §10.2): every slot fires, and fires one message (definitions:
 * {@link Checker}).
 */
final class CheckSchedules {
  /**
   * A slot due this long before the end must have fired: the quiet period's leader fires each slot
   * within a second of its time; this is ten times that, and more than a fail-over.
   */
  static final Duration SETTLE = Duration.ofSeconds(10);

  /** The most slots one schedule's check walks: a bound on a run, not a rule. */
  static final int MOST_SLOTS = 1_000_000;

  /** The schedule half of a report. */
  record Counts(long slotsFired, long missedSlots, long duplicateSlots) {}

  private CheckSchedules() {}

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Counts check(List<HistoryEvent> events, FinalState end, CheckExamples examples) {
    // schedule -> slot (micros) -> the ids of the messages that carry it
    Map<String, NavigableMap<Long, Set<Long>>> carried = new TreeMap<>();
    end.slotMessages()
        .forEach(
            (id, key) ->
                SlotKey.parse(key).ifPresent(s -> carry(carried, s.schedule(), s.micros(), id)));
    Map<String, Instant> firstDeclared = new HashMap<>();
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case SLOT_HANDLED ->
            carry(carried, Objects.requireNonNull(event.key()), event.epoch(), event.message());
        case SCHEDULE_DECLARED -> firstDeclared.putIfAbsent(event.key(), event.at());
        default -> {}
      }
    }
    long fired = carried.values().stream().mapToLong(Map::size).sum();
    return new Counts(
        fired, missed(carried, firstDeclared, end, examples), duplicates(carried, examples));
  }

  private static void carry(
      Map<String, NavigableMap<Long, Set<Long>>> carried, String schedule, long micros, long id) {
    carried
        .computeIfAbsent(schedule, s -> new TreeMap<>())
        .computeIfAbsent(micros, m -> new TreeSet<>())
        .add(id);
  }

  /** Per (schedule, slot), each message beyond the first that carries it. */
  private static long duplicates(
      Map<String, NavigableMap<Long, Set<Long>>> carried, CheckExamples examples) {
    long duplicates = 0;
    for (var schedule : carried.entrySet()) {
      for (var slot : schedule.getValue().entrySet()) {
        Set<Long> ids = slot.getValue();
        if (ids.size() > 1) {
          duplicates += ids.size() - 1;
          examples.add(
              "duplicateSlots",
              schedule.getKey()
                  + ": slot "
                  + instant(slot.getKey())
                  + " carried by "
                  + ids.size()
                  + " messages ("
                  + ids.stream().map(String::valueOf).collect(Collectors.joining(", "))
                  + ")");
        }
      }
    }
    return duplicates;
  }

  /**
   * Per expected schedule: a missing row counts once; else each slot from its lowest known slot up
   * to its row's next slot that no message carries, each slot from its next slot up to {@link
   * #SETTLE} before the end (overdue), and the slots its row says its policy skipped.
   */
  private static long missed(
      Map<String, NavigableMap<Long, Set<Long>>> carried,
      Map<String, Instant> firstDeclared,
      FinalState end,
      CheckExamples examples) {
    Map<String, ScheduleInfo> rows = new HashMap<>();
    end.schedules().forEach(row -> rows.put(row.name(), row));
    long missed = 0;
    for (String name : new TreeSet<>(end.expectedSchedules())) {
      ScheduleInfo row = rows.get(name);
      if (row == null) {
        missed++;
        examples.add("missedSlots", name + ": no such schedule at the end");
        continue;
      }
      NavigableMap<Long, Set<Long>> slots = carried.getOrDefault(name, new TreeMap<>());
      missed += gaps(row, lowest(row.schedule(), slots, firstDeclared.get(name)), slots, examples);
      missed += overdue(row, examples);
      if (row.skipped() > 0) {
        missed += row.skipped();
        examples.add(
            "missedSlots",
            name + ": " + row.skipped() + " slots skipped by its missed-slot policy");
      }
    }
    return missed;
  }

  /**
   * The schedule's lowest slot that must have a message: the lowest any message carries, or the
   * first after its first declaration (which is at or after its first slot), whichever is lower.
   * One millisecond past the declaration: the history's clock may keep only milliseconds.
   */
  private static @Nullable Instant lowest(
      Schedule schedule, NavigableMap<Long, Set<Long>> slots, @Nullable Instant declared) {
    Instant fromMessages = slots.isEmpty() ? null : instant(slots.firstKey());
    Instant fromDeclaration =
        declared == null ? null : schedule.nextSlotAfter(declared.plusMillis(1));
    if (fromMessages == null || fromDeclaration == null) {
      return fromMessages != null ? fromMessages : fromDeclaration;
    }
    return fromMessages.isBefore(fromDeclaration) ? fromMessages : fromDeclaration;
  }

  /** Slots from {@code lowest} up to the row's next slot that no message carries. */
  private static long gaps(
      ScheduleInfo row,
      @Nullable Instant lowest,
      NavigableMap<Long, Set<Long>> slots,
      CheckExamples examples) {
    long gaps = 0;
    Instant slot = lowest;
    for (int i = 0; slot != null && slot.isBefore(row.nextFireAt()) && i < MOST_SLOTS; i++) {
      if (!slots.containsKey(SlotKey.micros(slot))) {
        gaps++;
        examples.add(
            "missedSlots",
            row.name()
                + ": no message for the slot "
                + slot
                + ", though its next slot at the end was "
                + row.nextFireAt());
      }
      slot = row.schedule().nextSlotAfter(slot);
    }
    return gaps;
  }

  /** Slots from the row's next slot up to {@link #SETTLE} before the end: not fired in time. */
  private static long overdue(ScheduleInfo row, CheckExamples examples) {
    Instant due = row.readAt().minus(SETTLE);
    long overdue = 0;
    Instant slot = row.nextFireAt();
    for (int i = 0; !slot.isAfter(due) && i < MOST_SLOTS; i++) {
      overdue++;
      examples.add(
          "missedSlots",
          row.name()
              + ": the slot "
              + slot
              + " had not fired at the end ("
              + row.readAt()
              + "), over "
              + SETTLE.toSeconds()
              + " s after it was due");
      slot = row.schedule().nextSlotAfter(slot);
    }
    return overdue;
  }

  private static Instant instant(long micros) {
    return new SlotKey("", micros).slot();
  }
}
