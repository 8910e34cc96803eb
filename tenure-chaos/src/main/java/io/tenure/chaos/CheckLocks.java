package io.tenure.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The named-lock invariant (SPEC §11): once a write under a token was accepted, no write under a
 * lower token is (definitions: {@link Checker}).
 */
final class CheckLocks {
  /** The lock half of a report. */
  record Counts(long writes, long refused, long overlaps) {}

  /** Fenced writes in the order they committed; a tie (none in a real run) by the history. */
  private static final Comparator<HistoryEvent> COMMIT_ORDER =
      Comparator.comparingLong(HistoryEvent::message).thenComparing(Checker.ORDER);

  private CheckLocks() {}

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Counts check(List<HistoryEvent> events, CheckExamples examples) {
    Map<String, List<HistoryEvent>> byLock = new TreeMap<>();
    long refused = 0;
    long writes = 0;
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case LOCK_WRITE -> {
          writes++;
          byLock
              .computeIfAbsent(Objects.requireNonNull(event.key()), k -> new ArrayList<>())
              .add(event);
        }
        case LOCK_WRITE_REFUSED -> refused++;
        default -> {}
      }
    }
    long overlaps = 0;
    for (List<HistoryEvent> lockWrites : byLock.values()) {
      lockWrites.sort(COMMIT_ORDER);
      overlaps += overlaps(lockWrites, examples);
    }
    return new Counts(writes, refused, overlaps);
  }

  /**
   * One lock's writes in commit order: each whose token is below the highest token committed before
   * it, plus once per pair of nodes per token, two nodes' writes at one token.
   */
  private static long overlaps(List<HistoryEvent> writes, CheckExamples examples) {
    long overlaps = 0;
    HistoryEvent highest = null;
    Map<Long, String> writerOfToken = new HashMap<>();
    Set<String> pairs = new HashSet<>();
    for (HistoryEvent write : writes) {
      if (highest != null && write.epoch() < highest.epoch()) {
        overlaps++;
        examples.add(
            "lockOverlaps",
            write.key()
                + ": "
                + describe(write)
                + " committed after "
                + describe(highest)
                + " had been accepted");
      }
      String first = writerOfToken.putIfAbsent(write.epoch(), write.node());
      if (first != null
          && !first.equals(write.node())
          && pairs.add(write.epoch() + " " + pair(first, write.node()))) {
        overlaps++;
        examples.add(
            "lockOverlaps",
            write.key()
                + ": "
                + first
                + " and "
                + write.node()
                + " both wrote at token "
                + write.epoch());
      }
      if (highest == null || write.epoch() > highest.epoch()) {
        highest = write;
      }
    }
    return overlaps;
  }

  private static String pair(String a, String b) {
    return a.compareTo(b) < 0 ? a + " " + b : b + " " + a;
  }

  private static String describe(HistoryEvent write) {
    return write.node()
        + "'s "
        + (write.detail() == null ? "write" : write.detail())
        + " at token "
        + write.epoch()
        + " (commit "
        + write.message()
        + ")";
  }
}
