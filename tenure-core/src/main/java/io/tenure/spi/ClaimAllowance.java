package io.tenure.spi;

import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What one claim of a limited queue may take (SPEC §12.1), from the stored limits and their use as
 * the claim's transaction read them: a budget for the claim and a room per group. A store reads the
 * use, offers its candidates in claim order to {@link #take}, claims the ones taken and records
 * {@link #claimsByRateKey} if the queue has a rate. No I/O, no clock: the same inputs give the same
 * answers on every provider.
 */
public final class ClaimAllowance {
  /** The rate key of a queue-wide rate, and of messages without a group under a per-group rate. */
  public static final String UNGROUPED = "";

  private final QueueLimits limits;
  private final int budget;
  private final Map<String, Integer> groupsInFlight;
  private final Map<String, Integer> claimsInWindow;
  private final Map<String, Integer> takenByGroup = new HashMap<>();
  private final Map<String, Integer> takenByRateKey = new LinkedHashMap<>();
  private int taken;

  private ClaimAllowance(
      QueueLimits limits,
      int budget,
      Map<String, Integer> groupsInFlight,
      Map<String, Integer> claimsInWindow) {
    this.limits = limits;
    this.budget = budget;
    this.groupsInFlight = Map.copyOf(groupsInFlight);
    this.claimsInWindow = Map.copyOf(claimsInWindow);
  }

  /**
   * @param requested the claim's own maximum
   * @param inFlight the queue's messages in flight
   * @param groupsInFlight messages in flight per group (groups with none may be absent)
   * @param claimsInWindow claims in the rate's window per rate key: {@link #UNGROUPED} for a
   *     queue-wide rate, else the group (absent keys have none)
   */
  public static ClaimAllowance of(
      QueueLimits limits,
      int requested,
      int inFlight,
      Map<String, Integer> groupsInFlight,
      Map<String, Integer> claimsInWindow) {
    long budget = requested;
    if (limits.maxInFlight() > 0) {
      budget = Math.min(budget, (long) limits.maxInFlight() - inFlight);
    }
    RateLimit rate = limits.rate();
    if (rate != null && !rate.perGroup()) {
      budget = Math.min(budget, (long) rate.claims() - claimsInWindow.getOrDefault(UNGROUPED, 0));
    }
    return new ClaimAllowance(limits, (int) Math.max(0, budget), groupsInFlight, claimsInWindow);
  }

  /**
   * @return at most this many messages in all; 0: claim nothing
   */
  public int budget() {
    return budget;
  }

  /**
   * @return whether messages must be offered one by one ({@link #take}), because a group can be
   *     full; false: any {@link #budget()} messages in claim order may be taken
   */
  public boolean byGroup() {
    return limits.maxInFlightPerGroup() > 0 || (limits.rate() != null && limits.rate().perGroup());
  }

  /**
   * Takes one message of {@code group} if the budget and the group's room allow.
   *
   * @return true if taken (counted); false: leave it
   */
  public boolean take(@Nullable String group) {
    if (taken >= budget || room(group) <= 0) {
      return false;
    }
    taken++;
    if (group != null) {
      takenByGroup.merge(group, 1, Integer::sum);
    }
    if (limits.rate() != null) {
      takenByRateKey.merge(rateKey(group), 1, Integer::sum);
    }
    return true;
  }

  /**
   * @return how many were taken so far
   */
  public int taken() {
    return taken;
  }

  /**
   * @return the groups that can take no more (the ones a claim statement may skip), sorted
   */
  public Set<String> fullGroups() {
    Set<String> full = new TreeSet<>();
    for (String group : groupsInFlight.keySet()) {
      if (room(group) <= 0) {
        full.add(group);
      }
    }
    for (String group : claimsInWindow.keySet()) {
      if (!group.equals(UNGROUPED) && room(group) <= 0) {
        full.add(group);
      }
    }
    for (String group : takenByGroup.keySet()) {
      if (room(group) <= 0) {
        full.add(group);
      }
    }
    return full;
  }

  /**
   * @return whether messages without a group can take no more (a per-group rate's shared budget)
   */
  public boolean ungroupedFull() {
    return room(null) <= 0;
  }

  /**
   * @return the claims to record for the rate, per rate key, in the order first taken; empty
   *     without a rate
   */
  public Map<String, Integer> claimsByRateKey() {
    return Map.copyOf(takenByRateKey);
  }

  /** How many more of the group this claim may take, the budget aside. */
  private long room(@Nullable String group) {
    long room = Long.MAX_VALUE;
    if (group != null && limits.maxInFlightPerGroup() > 0) {
      room =
          (long) limits.maxInFlightPerGroup()
              - groupsInFlight.getOrDefault(group, 0)
              - takenByGroup.getOrDefault(group, 0);
    }
    RateLimit rate = limits.rate();
    if (rate != null && rate.perGroup()) {
      String key = rateKey(group);
      room =
          Math.min(
              room,
              (long) rate.claims()
                  - claimsInWindow.getOrDefault(key, 0)
                  - takenByRateKey.getOrDefault(key, 0));
    }
    return room;
  }

  private String rateKey(@Nullable String group) {
    RateLimit rate = limits.rate();
    return rate != null && rate.perGroup() && group != null ? group : UNGROUPED;
  }
}
