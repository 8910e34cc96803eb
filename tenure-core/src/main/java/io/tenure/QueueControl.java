package io.tenure;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A queue's pause and limits as stored (SPEC §12.1, §12.2), with their current use, read in one
 * snapshot.
 *
 * @param paused true while no node may claim from the queue
 * @param limits the stored limits; {@link QueueLimits#none()} if never set
 * @param inFlight the queue's messages in flight now, for {@code limits.maxInFlight()}
 * @param groupsInFlight the busiest groups' messages in flight now, busiest first (then by name),
 *     at most {@link #GROUPS_SHOWN} of them, for {@code limits.maxInFlightPerGroup()}
 * @param claimsInWindow the claims counted in the rate's current window (the whole queue's), 0
 *     without a rate
 * @param updatedAt when the pause or limits last changed, or null if never
 */
public record QueueControl(
    String queue,
    boolean paused,
    QueueLimits limits,
    int inFlight,
    Map<String, Integer> groupsInFlight,
    int claimsInWindow,
    java.time.@Nullable Instant updatedAt) {
  /** How many groups a read shows, busiest first. */
  public static final int GROUPS_SHOWN = 20;

  /** Keeps the busiest {@link #GROUPS_SHOWN} groups, busiest first. */
  public QueueControl {
    Map<String, Integer> busiest = new java.util.LinkedHashMap<>();
    groupsInFlight.entrySet().stream()
        .sorted(
            Map.Entry.<String, Integer>comparingByValue(java.util.Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(GROUPS_SHOWN)
        .forEach(e -> busiest.put(e.getKey(), e.getValue()));
    groupsInFlight = java.util.Collections.unmodifiableMap(busiest);
  }
}
