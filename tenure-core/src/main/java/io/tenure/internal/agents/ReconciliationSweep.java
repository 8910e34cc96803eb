package io.tenure.internal.agents;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The node's reconciliation sweep (SPEC §5.4) as a pure function: compares the rows that concern
 * this node with what runs here and returns what to do, oldest divergence first, at most {@code
 * maxPerTick} actions. Agents with a start or stop in progress are left alone, so a slow start is
 * never started twice and a slow stop never stopped twice. A divergence keeps the tick it was first
 * seen on while it persists, so deferred ones age and go first later.
 */
final class ReconciliationSweep {
  /**
   * Divergences seen so far, by agent: the tick each was first seen. Mutable, owned by one node.
   */
  private final Map<AgentUri, Long> firstSeen = new HashMap<>();

  /**
   * @param nodeId this node's incarnation
   * @param rows every assignment row (a snapshot)
   * @param running agents running here
   * @param busy agents with a start or stop in progress here
   * @param tick a counter that grows by one per sweep
   * @param maxPerTick most actions returned; 0 or less means no cap
   */
  List<SweepAction> sweep(
      String nodeId,
      List<AgentAssignment> rows,
      Set<AgentUri> running,
      Set<AgentUri> busy,
      long tick,
      int maxPerTick) {
    Map<AgentUri, AgentAssignment> byUri = new HashMap<>();
    rows.forEach(row -> byUri.put(row.uri(), row));
    List<SweepAction> divergences = new ArrayList<>();
    for (AgentAssignment row : rows) {
      if (!busy.contains(row.uri()) && !running.contains(row.uri())) {
        notRunning(nodeId, row).ifPresent(divergences::add);
      }
    }
    for (AgentUri uri : running) {
      if (!busy.contains(uri)) {
        running(nodeId, byUri.get(uri), uri).ifPresent(divergences::add);
      }
    }
    Set<AgentUri> current = new TreeSet<>(Comparator.comparing(AgentUri::toString));
    divergences.forEach(action -> current.add(action.uri()));
    firstSeen.keySet().retainAll(current);
    divergences.forEach(action -> firstSeen.putIfAbsent(action.uri(), tick));
    divergences.sort(
        Comparator.comparingLong((SweepAction action) -> firstSeen.get(action.uri()))
            .thenComparing(action -> action.uri().toString()));
    return maxPerTick > 0 && divergences.size() > maxPerTick
        ? List.copyOf(divergences.subList(0, maxPerTick))
        : List.copyOf(divergences);
  }

  private static java.util.Optional<SweepAction> notRunning(String nodeId, AgentAssignment row) {
    boolean mine = nodeId.equals(row.owner());
    boolean targetedHere = nodeId.equals(row.target()) && !row.paused();
    if (targetedHere && (mine || row.owner() == null)) {
      return java.util.Optional.of(new SweepAction.Start(row.uri()));
    }
    if (mine) {
      return java.util.Optional.of(new SweepAction.Release(row.uri()));
    }
    return java.util.Optional.empty();
  }

  private static java.util.Optional<SweepAction> running(
      String nodeId, AgentAssignment row, AgentUri uri) {
    if (row == null) {
      return java.util.Optional.of(new SweepAction.Restore(uri));
    }
    boolean mine = nodeId.equals(row.owner());
    if (row.owner() != null && !mine) {
      return java.util.Optional.of(new SweepAction.StopOrphan(uri));
    }
    boolean wantedHere = nodeId.equals(row.target()) && !row.paused();
    if (!wantedHere) {
      return java.util.Optional.of(new SweepAction.StopAndRelease(uri));
    }
    // Running, targeted here, owned by us or by nobody: nothing to stop; claim if it is free.
    return mine ? java.util.Optional.empty() : java.util.Optional.of(new SweepAction.Start(uri));
  }
}
