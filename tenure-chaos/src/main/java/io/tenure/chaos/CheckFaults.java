package io.tenure.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The times: fail-over after a fault of the leader, convergence of the faulted node's agents
 * (definitions: {@link Checker}). One pass over the history, keeping the faults still waiting.
 */
final class CheckFaults {
  /** The time half of a report: counts, and one sample per fault that has a time. */
  record Times(long faults, long unfailedOver, List<Long> failovers, List<Long> convergences) {}

  /** A fault of the leader, waiting for a new leader. */
  private record LeaderFault(HistoryEvent fault, long epoch) {
    boolean endedBy(HistoryEvent leader) {
      return !leader.node().equals(fault.node()) || leader.epoch() > epoch;
    }
  }

  /**
   * A disruptive fault, waiting for each agent its target owned to be written at a newer epoch: by
   * another node, or by the target's next incarnation (a restarted node keeps its name).
   */
  private static final class AgentsFault {
    final HistoryEvent fault;

    /** Each agent still waiting, with its epoch when the fault hit. */
    final Map<String, Long> waiting;

    long slowestMs = -1;

    AgentsFault(HistoryEvent fault, Map<String, Long> owned) {
      this.fault = fault;
      this.waiting = new TreeMap<>(owned);
    }
  }

  private CheckFaults() {}

  /**
   * @param events the history in {@link Checker#ORDER}
   */
  static Times check(List<HistoryEvent> events, CheckExamples examples) {
    long faults = 0;
    @Nullable HistoryEvent leader = null;
    Map<String, HistoryEvent> lastWrite = new TreeMap<>();
    List<LeaderFault> leaderFaults = new ArrayList<>();
    List<Long> failovers = new ArrayList<>();
    List<AgentsFault> agentsFaults = new ArrayList<>();
    Map<String, List<AgentsFault>> waitingByAgent = new HashMap<>();
    for (HistoryEvent event : events) {
      switch (event.kind()) {
        case LEADER -> {
          failovers.addAll(endFailovers(leaderFaults, event));
          leader = event;
        }
        case FENCED_WRITE_ACCEPTED -> {
          moved(waitingByAgent.getOrDefault(event.agent(), List.of()), event);
          lastWrite.put(event.agent(), event);
        }
        case FAULT -> {
          faults++;
          if (Checker.disruptive(event)) {
            if (leader != null && leader.node().equals(event.node())) {
              leaderFaults.add(new LeaderFault(event, leader.epoch()));
            }
            AgentsFault waiting = new AgentsFault(event, ownedBy(event.node(), lastWrite));
            agentsFaults.add(waiting);
            waiting
                .waiting
                .keySet()
                .forEach(
                    agent ->
                        waitingByAgent.computeIfAbsent(agent, a -> new ArrayList<>()).add(waiting));
          }
        }
        default -> {}
      }
    }
    for (LeaderFault never : leaderFaults) {
      examples.add(
          "unfailedOver",
          "leader "
              + never.fault().node()
              + " (epoch "
              + never.epoch()
              + ") faulted at "
              + describe(never.fault())
              + "; no new leader followed");
    }
    return new Times(faults, leaderFaults.size(), failovers, convergences(agentsFaults, examples));
  }

  /** Removes the leader faults this new leader ends; returns their fail-over times. */
  private static List<Long> endFailovers(List<LeaderFault> waiting, HistoryEvent leader) {
    List<Long> times = new ArrayList<>();
    for (Iterator<LeaderFault> i = waiting.iterator(); i.hasNext(); ) {
      LeaderFault fault = i.next();
      if (fault.endedBy(leader)) {
        times.add(millis(fault.fault(), leader));
        i.remove();
      }
    }
    return times;
  }

  /** Marks the agent moved for every waiting fault it had a lower epoch at. */
  private static void moved(List<AgentsFault> waiting, HistoryEvent write) {
    for (AgentsFault fault : waiting) {
      Long epoch = fault.waiting.get(write.agent());
      if (epoch != null && write.epoch() > epoch) {
        fault.waiting.remove(write.agent());
        fault.slowestMs = Math.max(fault.slowestMs, millis(fault.fault, write));
      }
    }
  }

  /** The agents whose latest accepted write is the node's, with that write's epoch. */
  private static Map<String, Long> ownedBy(String node, Map<String, HistoryEvent> lastWrite) {
    Map<String, Long> owned = new TreeMap<>();
    lastWrite.forEach(
        (agent, write) -> {
          if (write.node().equals(node)) {
            owned.put(agent, write.epoch());
          }
        });
    return owned;
  }

  private static List<Long> convergences(List<AgentsFault> faults, CheckExamples examples) {
    List<Long> times = new ArrayList<>();
    for (AgentsFault fault : faults) {
      if (fault.slowestMs >= 0) {
        times.add(fault.slowestMs);
      }
      for (String agent : fault.waiting.keySet()) {
        examples.add(
            Checker.NOT_MOVED_AFTER_FAULT,
            "agent "
                + agent
                + ", owned by "
                + fault.fault.node()
                + " at "
                + describe(fault.fault)
                + ", never written at a newer epoch");
      }
    }
    return times;
  }

  private static String describe(HistoryEvent fault) {
    return "fault " + fault.id() + " '" + fault.detail() + "' (" + fault.at() + ")";
  }

  private static long millis(HistoryEvent from, HistoryEvent to) {
    return Duration.between(from.at(), to.at()).toMillis();
  }
}
