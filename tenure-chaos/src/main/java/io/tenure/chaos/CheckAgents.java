package io.tenure.chaos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The agent invariants: overlaps and stale-epoch writes measured by accepted fenced writes, and
 * convergence of the final assignment (definitions: {@link Checker}).
 */
final class CheckAgents {
  /** The agent half of a report. */
  record Counts(long overlaps, long staleEpochWrites, long unconverged) {}

  private CheckAgents() {}

  /**
   * Leader writes applied although they began after a newer leader was recorded (definition: {@link
   * Checker}, staleEpochWritesAccepted).
   *
   * @param events the history in {@link Checker#ORDER}
   */
  static long staleLeaderWrites(List<HistoryEvent> events, CheckExamples examples) {
    Set<String> applied = new java.util.HashSet<>();
    events.stream()
        .filter(e -> e.kind() == HistoryEvent.Kind.LEADER_WRITE_APPLIED)
        .forEach(e -> applied.add(e.token()));
    long newestEpoch = 0;
    String newestLeader = null;
    long stale = 0;
    for (HistoryEvent event : events) {
      if (event.kind() == HistoryEvent.Kind.LEADER && event.epoch() > newestEpoch) {
        newestEpoch = event.epoch();
        newestLeader = event.node();
      } else if (event.kind() == HistoryEvent.Kind.LEADER_WRITE
          && event.epoch() < newestEpoch
          && applied.contains(event.token())) {
        stale++;
        examples.add(
            "staleEpochWritesAccepted",
            "leader write "
                + event.detail()
                + " by "
                + event.node()
                + " at epoch "
                + event.epoch()
                + " began after "
                + newestLeader
                + " led at epoch "
                + newestEpoch
                + ", and was applied");
      }
    }
    return stale;
  }

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Counts check(List<HistoryEvent> events, FinalState end, CheckExamples examples) {
    Map<String, Writes> byAgent = new HashMap<>();
    Map<String, java.time.Instant> lastFaulted = new HashMap<>();
    Set<String> cutOff = new java.util.HashSet<>();
    long overlaps = 0;
    long stale = 0;
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case FENCED_WRITE_ACCEPTED -> {
          Writes writes = byAgent.computeIfAbsent(event.agent(), Writes::new);
          stale += writes.stale(event, examples);
          overlaps += writes.overlaps(event, examples);
          writes.record(event);
        }
        case FENCED_WRITE_REJECTED -> {
          java.time.Instant faulted =
              latest(lastFaulted.get(event.node()), lastFaulted.get(HistoryEvent.EVERY_NODE));
          if (faulted == null || faulted.plus(GRACE).isBefore(event.at())) {
            overlaps++;
            examples.add(
                "agentOverlaps",
                "agent "
                    + event.agent()
                    + ": "
                    + event.node()
                    + " (epoch "
                    + event.epoch()
                    + ") still ran it after another node had taken it (its write was refused), unfaulted");
          }
        }
        // A pause, killed sessions or a slowed or restarted database cut a node off: for a while
        // after (from the fault and from its end), being superseded is expected. A kill or stop
        // ends the process: its restarted incarnation is healthy and gets no grace.
        case FAULT -> {
          if (cutsOff(event.detail())) {
            cutOff.add(event.node());
            lastFaulted.put(event.node(), event.at());
          } else {
            cutOff.remove(event.node());
          }
        }
        case FAULT_END -> {
          if (cutOff.remove(event.node())) {
            lastFaulted.put(event.node(), event.at());
          }
        }
        default -> {}
      }
    }
    return new Counts(overlaps, stale, unconverged(end, examples));
  }

  /**
   * The faults after which a node may find itself superseded: it was frozen or cut off, not ended.
   */
  static boolean cutsOff(@Nullable String detail) {
    String kind = detail == null ? "" : detail.strip().toLowerCase(java.util.Locale.ROOT);
    return kind.equals("pause")
        || kind.equals("pause leader")
        || kind.equals("kill-connections")
        || kind.equals("slow-db")
        || kind.equals("restart-db");
  }

  private static java.time.@Nullable Instant latest(
      java.time.@Nullable Instant a, java.time.@Nullable Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
  }

  /**
   * How long after a fault on a node (its start or its end) a refused write from it is expected:
   * more than its self-fence time (3 s) plus an agent sweep and stop (3 s).
   */
  static final java.time.Duration GRACE = java.time.Duration.ofSeconds(10);

  private static long unconverged(FinalState end, CheckExamples examples) {
    long unconverged = 0;
    for (String agent : new TreeSet<>(end.expectedAgents())) {
      String owner = end.ownerOf(agent);
      if (owner == null) {
        unconverged++;
        examples.add("unconvergedAgents", "agent " + agent + " has no owner");
      } else if (!end.liveNodes().contains(owner)) {
        unconverged++;
        examples.add(
            "unconvergedAgents",
            "agent " + agent + " is owned by " + owner + ", which is not live");
      }
    }
    return unconverged;
  }

  /** One agent's accepted writes so far: the highest epoch per node, and the nodes per epoch. */
  private static final class Writes {
    private final String agent;
    private final Map<String, Long> highestEpochByNode = new TreeMap<>();
    private final Map<Long, Set<String>> nodesByEpoch = new HashMap<>();
    private long highestEpoch = Long.MIN_VALUE;

    Writes(String agent) {
      this.agent = agent;
    }

    /** 1 if the write's epoch is below one already accepted for this agent, else 0. */
    long stale(HistoryEvent write, CheckExamples examples) {
      if (write.epoch() >= highestEpoch) {
        return 0;
      }
      examples.add(
          "staleEpochWritesAccepted",
          "agent "
              + agent
              + ": "
              + write.node()
              + " wrote at epoch "
              + write.epoch()
              + " after epoch "
              + highestEpoch
              + " was accepted");
      return 1;
    }

    /** Overlaps this write adds: (a) a superseded writer's effect, (b) new same-epoch pairs. */
    long overlaps(HistoryEvent write, CheckExamples examples) {
      long overlaps = 0;
      String superseder = superseder(write);
      if (superseder != null) {
        overlaps++;
        examples.add(
            "agentOverlaps",
            "agent "
                + agent
                + ": "
                + write.node()
                + " (epoch "
                + write.epoch()
                + ") wrote after "
                + superseder
                + " (epoch "
                + highestEpochByNode.get(superseder)
                + ") had written");
      }
      Set<String> sameEpoch = nodesByEpoch.getOrDefault(write.epoch(), Set.of());
      if (!sameEpoch.contains(write.node())) {
        for (String other : new TreeSet<>(sameEpoch)) {
          overlaps++;
          examples.add(
              "agentOverlaps",
              "agent "
                  + agent
                  + ": "
                  + other
                  + " and "
                  + write.node()
                  + " both wrote at epoch "
                  + write.epoch());
        }
      }
      return overlaps;
    }

    /** The other node with the highest epoch above this write's, if any (ties: first by name). */
    private @Nullable String superseder(HistoryEvent write) {
      @Nullable String superseder = null;
      long best = write.epoch();
      for (Map.Entry<String, Long> entry : highestEpochByNode.entrySet()) {
        if (!entry.getKey().equals(write.node()) && entry.getValue() > best) {
          superseder = entry.getKey();
          best = entry.getValue();
        }
      }
      return superseder;
    }

    void record(HistoryEvent write) {
      highestEpoch = Math.max(highestEpoch, write.epoch());
      highestEpochByNode.merge(write.node(), write.epoch(), Math::max);
      nodesByEpoch.computeIfAbsent(write.epoch(), e -> new TreeSet<>()).add(write.node());
    }
  }
}
