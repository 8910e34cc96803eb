package io.tenure.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects up to {@link #PER_KEY} human-readable examples per key, in the order they were found.
 * The report is for a person reading a failed run: the first few cases say more than a full list.
 */
final class CheckExamples {
  /** Examples kept per key; the counts in the report say how many there were in all. */
  static final int PER_KEY = 5;

  /**
   * Keys in the order the report lists them: the invariants first, then the notes that are not
   * violations but explain a count (or the absence of a time).
   */
  private static final List<String> ORDER =
      List.of(
          "lost",
          "stranded",
          "duplicateDeliveries",
          "agentOverlaps",
          "staleEpochWritesAccepted",
          "fifoOrderViolations",
          "keyOverlaps",
          "unconvergedAgents",
          "missedSlots",
          "duplicateSlots",
          "lockOverlaps",
          "unfailedOver",
          Checker.HANDLED_OUTCOME_NOT_WRITTEN,
          Checker.NOT_MOVED_AFTER_FAULT);

  private final Map<String, List<String>> byKey = new LinkedHashMap<>();

  void add(String key, String example) {
    List<String> examples = byKey.computeIfAbsent(key, k -> new ArrayList<>());
    if (examples.size() < PER_KEY) {
      examples.add(example);
    }
  }

  /** The examples, keys in {@link #ORDER} (unknown keys last, as found), each list unmodifiable. */
  Map<String, List<String>> toMap() {
    Map<String, List<String>> ordered = new LinkedHashMap<>();
    for (String key : ORDER) {
      if (byKey.containsKey(key)) {
        ordered.put(key, List.copyOf(byKey.get(key)));
      }
    }
    byKey.forEach((key, examples) -> ordered.putIfAbsent(key, List.copyOf(examples)));
    return Collections.unmodifiableMap(ordered);
  }
}
