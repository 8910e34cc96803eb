package io.tenure.chaos;

import io.tenure.server.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The verdict on one chaos run (SPEC §9.4): what happened, each invariant's violation count, and
 * how long fail-over and convergence took. {@link Checker} defines every number.
 *
 * @param enqueued distinct messages the workload enqueued
 * @param handled distinct messages handled at least once
 * @param dead enqueued messages whose final status is {@code DEAD}
 * @param faults faults the harness injected (every kind)
 * @param slotsFired distinct (schedule, slot) pairs some message carries
 * @param lockWrites fenced writes under a named lock that committed
 * @param lockWritesRefused fenced writes whose fence refused them (a superseded or lost holder)
 * @param lost enqueued messages never handled and no longer pending (a safety violation)
 * @param stranded enqueued messages never handled and still pending or in flight after the quiet
 *     period (a safety violation)
 * @param duplicateDeliveries handlings beyond the first; allowed by at-least-once, only reported
 * @param agentOverlaps effects of two owners of one agent (a safety violation)
 * @param staleEpochWritesAccepted fenced writes accepted below an epoch already accepted (a safety
 *     violation)
 * @param fifoOrderViolations messages handled before an older message of their key (a safety
 *     violation)
 * @param keyOverlaps messages of a key (or of an exclusive queue) that began while an older one was
 *     still being handled under its latest claim (a safety violation)
 * @param unconvergedAgents expected agents not owned by a live node at the end (a safety violation)
 * @param leaderOverlaps pairs of nodes that both believed they led for more than 50 ms at once (a
 *     safety violation)
 * @param leaderBounces pauses of the leader followed by more than one leader change (a safety
 *     violation)
 * @param missedSlots schedule slots that should have a message and have none, are overdue, or were
 *     skipped (a safety violation)
 * @param duplicateSlots messages beyond the first for one schedule slot (a safety violation)
 * @param lockOverlaps fenced writes of a superseded lock holder that committed (a safety violation)
 * @param cancels cancels the store made
 * @param limitExceeded starts of handlings that took the limited queue, or a group of it, above its
 *     limit (a safety violation)
 * @param cancelledCompleted cancelled messages that ended done or deleted (a safety violation)
 * @param unfailedOver leader faults never followed by a new leader; reported, not a safety
 *     violation
 * @param failoverMs time from a fault of the leader to the next leader; null if there is none
 * @param convergenceMs time from a fault to the last of its target's agents moving; null if none
 * @param examples up to 5 readable examples per violated invariant (keyed by the invariant's field
 *     name) and per note ({@code handledOutcomeNotWritten}, {@code agentsNotMovedAfterFault}); see
 *     {@link Checker}
 */
public record ChaosReport(
    long enqueued,
    long handled,
    long dead,
    long faults,
    long slotsFired,
    long lockWrites,
    long lockWritesRefused,
    long lost,
    long stranded,
    long duplicateDeliveries,
    long agentOverlaps,
    long staleEpochWritesAccepted,
    long fifoOrderViolations,
    long keyOverlaps,
    long unconvergedAgents,
    long leaderOverlaps,
    long leaderBounces,
    long missedSlots,
    long duplicateSlots,
    long lockOverlaps,
    long cancels,
    long limitExceeded,
    long cancelledCompleted,
    long unfailedOver,
    @Nullable Millis failoverMs,
    @Nullable Millis convergenceMs,
    Map<String, List<String>> examples) {

  /**
   * Copies the examples, keeping their order.
   *
   * @throws NullPointerException if {@code examples}, a key or an example is null
   */
  public ChaosReport {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    examples.forEach((key, list) -> copy.put(Objects.requireNonNull(key), List.copyOf(list)));
    examples = Collections.unmodifiableMap(copy);
  }

  /**
   * Whether every safety invariant held. Duplicate deliveries are allowed by at-least-once
   * delivery, and a run without a new leader after a leader fault shows as {@link #unfailedOver}
   * and a missing time; neither makes a run unsafe.
   *
   * @return true if nothing was lost or stranded, no agent overlapped, no stale write was accepted,
   *     no key was handled out of order or had two messages in flight, every agent converged, no
   *     two nodes led at once, no pause of the leader changed it more than once, every schedule
   *     slot fired exactly one message, no superseded lock holder's write committed, no limit was
   *     exceeded and no cancelled message completed
   */
  public boolean safe() {
    return lost == 0
        && stranded == 0
        && agentOverlaps == 0
        && staleEpochWritesAccepted == 0
        && fifoOrderViolations == 0
        && keyOverlaps == 0
        && unconvergedAgents == 0
        && leaderOverlaps == 0
        && leaderBounces == 0
        && missedSlots == 0
        && duplicateSlots == 0
        && lockOverlaps == 0
        && limitExceeded == 0
        && cancelledCompleted == 0;
  }

  /**
   * @return the report as one line of JSON: every field by its name, the two times as {@code
   *     {"p50": ms, "max": ms}} or null, {@code safe}, and {@code examples} as an object of arrays
   */
  public String toJson() {
    Map<String, @Nullable Object> json = new LinkedHashMap<>();
    json.put("enqueued", enqueued);
    json.put("handled", handled);
    json.put("dead", dead);
    json.put("faults", faults);
    json.put("slotsFired", slotsFired);
    json.put("lockWrites", lockWrites);
    json.put("lockWritesRefused", lockWritesRefused);
    json.put("lost", lost);
    json.put("stranded", stranded);
    json.put("duplicateDeliveries", duplicateDeliveries);
    json.put("agentOverlaps", agentOverlaps);
    json.put("staleEpochWritesAccepted", staleEpochWritesAccepted);
    json.put("fifoOrderViolations", fifoOrderViolations);
    json.put("keyOverlaps", keyOverlaps);
    json.put("unconvergedAgents", unconvergedAgents);
    json.put("leaderOverlaps", leaderOverlaps);
    json.put("leaderBounces", leaderBounces);
    json.put("missedSlots", missedSlots);
    json.put("duplicateSlots", duplicateSlots);
    json.put("lockOverlaps", lockOverlaps);
    json.put("cancels", cancels);
    json.put("limitExceeded", limitExceeded);
    json.put("cancelledCompleted", cancelledCompleted);
    json.put("unfailedOver", unfailedOver);
    json.put("failoverMs", failoverMs == null ? null : failoverMs.toMap());
    json.put("convergenceMs", convergenceMs == null ? null : convergenceMs.toMap());
    json.put("safe", safe());
    json.put("examples", examples);
    return Json.write(json);
  }

  /**
   * A distribution of times in milliseconds, summarised.
   *
   * @param p50 the median by nearest rank: the ceil(n/2)-th smallest of n samples
   * @param max the largest sample
   */
  public record Millis(long p50, long max) {

    /**
     * @throws IllegalArgumentException if a time is negative or the median exceeds the maximum
     */
    public Millis {
      if (p50 < 0 || max < p50) {
        throw new IllegalArgumentException("need 0 <= p50 <= max, got p50 " + p50 + ", max " + max);
      }
    }

    /**
     * @param samples times in milliseconds, in any order
     * @return their median (nearest rank) and maximum, or null if there are none
     * @throws IllegalArgumentException if a sample is negative
     */
    public static @Nullable Millis of(List<Long> samples) {
      if (samples.isEmpty()) {
        return null;
      }
      List<Long> sorted = samples.stream().sorted().toList();
      int rank = (sorted.size() + 1) / 2; // nearest rank: ceil(0.5 * n), 1-based
      return new Millis(sorted.get(rank - 1), sorted.getLast());
    }

    Map<String, Object> toMap() {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("p50", p50);
      map.put("max", max);
      return map;
    }
  }
}
