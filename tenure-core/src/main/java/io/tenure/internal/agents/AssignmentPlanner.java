package io.tenure.internal.agents;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The leader's assignment pass (SPEC §5.2) as a pure function of a snapshot: no I/O, no clock.
 *
 * <ul>
 *   <li>every wanted, unpaused agent gets a target: an {@code ACTIVE} node whose capabilities
 *       include the agent's scheme (a pin names the node);
 *   <li>per family, loads are spread so that max - min is at most 1 among the nodes that can run
 *       it, not counting pinned agents;
 *   <li>sticky: an agent keeps a valid target; only rebalancing moves it, and at most {@code
 *       maxMoves} running agents per pass (an agent nobody runs yet moves freely: that stops
 *       nothing), unowned agents first;
 *   <li>agents nobody wants are unplaced, then retired once unowned; rows of owners that are no
 *       longer active are freed (the store waits for the owner's self-fence deadline).
 * </ul>
 *
 * Placing an agent that has no valid target is never capped: after a crash or a cold start every
 * agent must find a node in one pass. Only agents that have no row at all may be held back (by
 * {@code placeNew}, while a cold start's membership settles); an agent whose row names a node that
 * is gone is always placed. The plan is deterministic: ties break by node id and URI.
 */
public final class AssignmentPlanner {
  /** Within one family (one scheme) the order of {@code toString}. */
  private static final Comparator<AgentUri> BY_NAME = Comparator.comparing(AgentUri::name);

  private AssignmentPlanner() {}

  /**
   * @param nodes every node row
   * @param wanted every agent the families want, by scheme
   * @param rows every assignment row
   * @param maxMoves rebalancing moves allowed in this pass; 0 or less means no cap
   * @return the writes to apply, in order
   */
  public static List<PlanAction> plan(
      List<NodeInfo> nodes,
      Map<String, Set<AgentUri>> wanted,
      List<AgentAssignment> rows,
      int maxMoves) {
    return plan(nodes, wanted, rows, maxMoves, true);
  }

  /**
   * @param placeNew false to leave agents that have no row unplaced in this pass (every other agent
   *     is planned as usual)
   * @return the writes to apply, in order
   */
  public static List<PlanAction> plan(
      List<NodeInfo> nodes,
      Map<String, Set<AgentUri>> wanted,
      List<AgentAssignment> rows,
      int maxMoves,
      boolean placeNew) {
    Map<String, NodeInfo> active =
        nodes.stream()
            .filter(n -> n.status() == NodeStatus.ACTIVE)
            .collect(Collectors.toMap(NodeInfo::nodeId, n -> n, (a, b) -> a, TreeMap::new));
    Map<AgentUri, AgentAssignment> byUri = new HashMap<>();
    rows.forEach(row -> byUri.put(row.uri(), row));
    List<PlanAction> actions = new ArrayList<>();
    freeRowsOfInactiveOwners(rows, active, actions);
    retireUnwanted(rows, wanted, actions);
    int[] movesLeft = {maxMoves <= 0 ? Integer.MAX_VALUE : maxMoves};
    for (Map.Entry<String, Set<AgentUri>> family : new TreeMap<>(wanted).entrySet()) {
      planFamily(family.getKey(), family.getValue(), active, byUri, movesLeft, placeNew, actions);
    }
    return actions;
  }

  private static void freeRowsOfInactiveOwners(
      List<AgentAssignment> rows, Map<String, NodeInfo> active, List<PlanAction> actions) {
    for (AgentAssignment row : rows) {
      if (row.owner() != null && !active.containsKey(row.owner())) {
        actions.add(new PlanAction.ReleaseFromDeadOwner(row.uri(), row.owner()));
      }
    }
  }

  private static void retireUnwanted(
      List<AgentAssignment> rows, Map<String, Set<AgentUri>> wanted, List<PlanAction> actions) {
    for (AgentAssignment row : rows) {
      Set<AgentUri> family = wanted.get(row.uri().scheme());
      if (family != null && family.contains(row.uri())) {
        continue;
      }
      if (row.owner() == null) {
        actions.add(new PlanAction.Retire(row.uri()));
      } else if (row.target() != null) {
        actions.add(new PlanAction.Unplace(row.uri()));
      }
    }
  }

  private static void planFamily(
      String scheme,
      Set<AgentUri> agents,
      Map<String, NodeInfo> active,
      Map<AgentUri, AgentAssignment> rows,
      int[] movesLeft,
      boolean placeNew,
      List<PlanAction> actions) {
    List<NodeInfo> capable =
        active.values().stream().filter(n -> n.capabilities().contains(scheme)).toList();
    if (capable.isEmpty()) {
      return;
    }
    Loads load = new Loads();
    capable.forEach(n -> load.addNode(n.nodeId()));
    // One family shares one scheme, so its URIs sort as their names do: the same order as by
    // toString, without building a string per comparison (a cold start sorts 10,000 of them).
    Map<AgentUri, String> planned = new TreeMap<>(BY_NAME);
    List<AgentUri> unplaced = new ArrayList<>();
    for (AgentUri uri : agents.stream().sorted(BY_NAME).toList()) {
      AgentAssignment row = rows.get(uri);
      if (row != null && row.paused()) {
        continue;
      }
      String pinned = row == null ? null : pinnedTarget(row, capable);
      String current = pinned != null ? pinned : validTarget(row, load);
      if (current == null) {
        if (row != null && row.pinnedTo() != null) {
          continue; // pinned to a node that cannot run it now: it waits for that node
        }
        if (row == null && !placeNew) {
          continue; // a cold start's agent, held back until membership settles
        }
        unplaced.add(uri);
      } else {
        planned.put(uri, current);
        if (pinned == null) {
          load.add(current, uri);
        }
      }
    }
    for (AgentUri uri : unplaced) {
      String target = load.least();
      load.add(target, uri);
      planned.put(uri, target);
    }
    // Only rebalancing counts as a move: a pin is the operator's, a lost node's agents must go.
    Set<AgentUri> moved = rebalance(load, rows, planned, movesLeft);
    for (Map.Entry<AgentUri, String> entry : planned.entrySet()) {
      AgentAssignment row = rows.get(entry.getKey());
      if (row == null || !entry.getValue().equals(row.target())) {
        actions.add(
            new PlanAction.Place(
                entry.getKey(),
                entry.getValue(),
                moved.contains(entry.getKey()),
                row == null || row.owner() == null));
      }
    }
  }

  private static @Nullable String pinnedTarget(AgentAssignment row, List<NodeInfo> capable) {
    if (row.pinnedTo() == null) {
      return null;
    }
    return capable.stream()
        .filter(n -> n.name().equals(row.pinnedTo()))
        .map(NodeInfo::nodeId)
        .findFirst()
        .orElse(null);
  }

  /** The row's target if that node can still run it, else its owner if that one can. */
  private static @Nullable String validTarget(@Nullable AgentAssignment row, Loads load) {
    if (row == null) {
      return null;
    }
    if (row.target() != null && load.has(row.target())) {
      return row.target();
    }
    if (row.owner() != null && load.has(row.owner())) {
      return row.owner();
    }
    return null;
  }

  private static Set<AgentUri> rebalance(
      Loads load,
      Map<AgentUri, AgentAssignment> rows,
      Map<AgentUri, String> planned,
      int[] movesLeft) {
    Set<AgentUri> moved = new java.util.HashSet<>();
    Comparator<AgentUri> cheapestFirst = cheapestFirst(rows);
    // Each node's agents, cheapest to move first, as they were before this pass moved any: agents
    // moved onto a node are not in its queue (the receiving node is the least loaded, so they do
    // not move on again in this pass).
    Map<String, PriorityQueue<AgentUri>> candidates = new HashMap<>();
    for (String node : load.nodes()) {
      PriorityQueue<AgentUri> queue = new PriorityQueue<>(cheapestFirst);
      queue.addAll(load.of(node));
      candidates.put(node, queue);
    }
    while (movesLeft[0] > 0) {
      String most = load.most();
      String least = load.least();
      if (load.of(most).size() - load.of(least).size() <= 1) {
        break;
      }
      AgentUri moving = cheapestToMove(load.of(most), candidates.get(most), cheapestFirst);
      load.remove(most, moving);
      load.add(least, moving);
      planned.put(moving, least);
      // Moving an agent nobody runs yet stops nothing: only moves of running agents are capped.
      AgentAssignment row = rows.get(moving);
      if (row != null && row.owner() != null) {
        moved.add(moving);
        movesLeft[0]--;
      }
    }
    return moved;
  }

  /** Prefer an agent nobody runs yet (moving it stops nothing), then the last by URI. */
  private static Comparator<AgentUri> cheapestFirst(Map<AgentUri, AgentAssignment> rows) {
    Comparator<AgentUri> byRunning =
        Comparator.comparing(
            uri -> {
              AgentAssignment row = rows.get(uri);
              return row != null && row.owner() != null;
            });
    return byRunning.thenComparing(BY_NAME.reversed());
  }

  private static AgentUri cheapestToMove(
      Set<AgentUri> current, PriorityQueue<AgentUri> queue, Comparator<AgentUri> cheapestFirst) {
    while (!queue.isEmpty()) {
      AgentUri next = queue.poll();
      if (current.contains(next)) {
        return next;
      }
    }
    return current.stream().min(cheapestFirst).orElseThrow();
  }

  /**
   * The agents planned on each node, with the least and most loaded found in O(log nodes): a cold
   * start places 10,000 agents over 100 nodes in one pass. Ties break by node id.
   */
  private static final class Loads {
    private final Map<String, Set<AgentUri>> agents = new HashMap<>();
    private final TreeSet<String> bySize =
        new TreeSet<>(
            Comparator.comparingInt((String node) -> agents.get(node).size())
                .thenComparing(node -> node));

    void addNode(String node) {
      agents.put(node, new java.util.HashSet<>());
      bySize.add(node);
    }

    boolean has(String node) {
      return agents.containsKey(node);
    }

    Set<String> nodes() {
      return agents.keySet();
    }

    Set<AgentUri> of(String node) {
      return agents.get(node);
    }

    void add(String node, AgentUri uri) {
      bySize.remove(node);
      agents.get(node).add(uri);
      bySize.add(node);
    }

    void remove(String node, AgentUri uri) {
      bySize.remove(node);
      agents.get(node).remove(uri);
      bySize.add(node);
    }

    String least() {
      return bySize.first();
    }

    String most() {
      return bySize.last();
    }
  }
}
