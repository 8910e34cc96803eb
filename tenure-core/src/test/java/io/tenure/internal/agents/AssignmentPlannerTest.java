package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The planner over random fleets (properties) and the example fleets. */
class AssignmentPlannerTest {
  private static final List<String> SCHEMES = List.of("a", "b", "c");

  /** A random fleet: nodes, wanted agents, and rows in any state a crash can leave them in. */
  record Fleet(
      List<NodeInfo> nodes, Map<String, Set<AgentUri>> wanted, List<AgentAssignment> rows) {}

  @Provide
  Arbitrary<Fleet> fleets() {
    Arbitrary<List<NodeInfo>> nodes =
        Combinators.combine(
                Arbitraries.of(NodeStatus.values()).list().ofMinSize(1).ofMaxSize(8),
                Arbitraries.subsetOf(SCHEMES).list().ofSize(8))
            .as(
                (statuses, caps) ->
                    IntStream.range(0, statuses.size())
                        .mapToObj(
                            i ->
                                node(
                                    "n" + i,
                                    i % 3 == 0 ? NodeStatus.ACTIVE : statuses.get(i),
                                    caps.get(i)))
                        .toList());
    Arbitrary<Map<String, Set<AgentUri>>> wanted =
        Arbitraries.integers()
            .between(0, 25)
            .list()
            .ofSize(3)
            .map(
                counts -> {
                  Map<String, Set<AgentUri>> map = new TreeMap<>();
                  for (int s = 0; s < SCHEMES.size(); s++) {
                    String scheme = SCHEMES.get(s);
                    map.put(
                        scheme,
                        IntStream.range(0, counts.get(s))
                            .mapToObj(i -> AgentUri.parse(scheme + "://x" + i))
                            .collect(Collectors.toSet()));
                  }
                  return map;
                });
    return Combinators.combine(nodes, wanted, Arbitraries.randomValue(r -> r))
        .as(
            (n, w, random) -> {
              List<String> ids = new ArrayList<>(n.stream().map(NodeInfo::nodeId).toList());
              ids.add("gone");
              List<AgentAssignment> rows = new ArrayList<>();
              for (String scheme : SCHEMES) {
                for (int i = 0; i < 30; i++) {
                  if (random.nextInt(3) == 0) {
                    continue;
                  }
                  String owner = random.nextBoolean() ? null : ids.get(random.nextInt(ids.size()));
                  String target =
                      random.nextInt(4) == 0 ? null : ids.get(random.nextInt(ids.size()));
                  boolean paused = random.nextInt(10) == 0;
                  String pinned = random.nextInt(12) == 0 ? "n" + random.nextInt(9) : null;
                  rows.add(
                      new AgentAssignment(
                          AgentUri.parse(scheme + "://x" + i), owner, target, 1, paused, pinned));
                }
              }
              return new Fleet(n, w, rows);
            });
  }

  private static NodeInfo node(String id, NodeStatus status, Collection<String> capabilities) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new NodeInfo(
        id, id, "", Set.copyOf(capabilities), status, t, t, Duration.ofSeconds(3), 1);
  }

  /**
   * What the rows look like after the leader applied the plan (owners unchanged but freed ones).
   */
  private static Map<AgentUri, AgentAssignment> apply(
      List<AgentAssignment> rows, List<PlanAction> plan) {
    Map<AgentUri, AgentAssignment> state = new LinkedHashMap<>();
    rows.forEach(r -> state.put(r.uri(), r));
    for (PlanAction action : plan) {
      AgentAssignment row = state.get(action.uri());
      switch (action) {
        // The store's contract: a free re-target skips a row that was claimed since the snapshot.
        case PlanAction.Place p when p.unowned() && row != null && row.owner() != null -> {}
        case PlanAction.Place p ->
            state.put(
                p.uri(),
                row == null
                    ? new AgentAssignment(p.uri(), null, p.target(), 0, false, null)
                    : new AgentAssignment(
                        p.uri(),
                        row.owner(),
                        p.target(),
                        row.epoch(),
                        row.paused(),
                        row.pinnedTo()));
        case PlanAction.Unplace u ->
            state.put(
                u.uri(),
                new AgentAssignment(
                    u.uri(), row.owner(), null, row.epoch(), row.paused(), row.pinnedTo()));
        case PlanAction.Retire r -> state.remove(r.uri());
        case PlanAction.ReleaseFromDeadOwner d ->
            state.put(
                d.uri(),
                new AgentAssignment(
                    d.uri(), null, row.target(), row.epoch(), row.paused(), row.pinnedTo()));
      }
    }
    return state;
  }

  private static Set<String> capable(List<NodeInfo> nodes, String scheme) {
    return nodes.stream()
        .filter(n -> n.status() == NodeStatus.ACTIVE && n.capabilities().contains(scheme))
        .map(NodeInfo::nodeId)
        .collect(Collectors.toSet());
  }

  private static Map<AgentUri, AgentAssignment> rowsByUri(List<AgentAssignment> rows) {
    Map<AgentUri, AgentAssignment> map = new HashMap<>();
    rows.forEach(r -> map.put(r.uri(), r));
    return map;
  }

  @Property
  void every_wanted_unpaused_unpinned_agent_gets_an_active_capable_target(
      @ForAll("fleets") Fleet fleet) {
    Map<AgentUri, AgentAssignment> after =
        apply(fleet.rows(), AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 3));
    Map<AgentUri, AgentAssignment> before = rowsByUri(fleet.rows());
    fleet
        .wanted()
        .forEach(
            (scheme, agents) -> {
              Set<String> capable = capable(fleet.nodes(), scheme);
              for (AgentUri uri : agents) {
                AgentAssignment old = before.get(uri);
                if (capable.isEmpty()
                    || (old != null && (old.paused() || old.pinnedTo() != null))) {
                  continue;
                }
                assertThat(after.get(uri).target()).as(uri.toString()).isIn(capable);
              }
            });
  }

  @Property
  void without_pins_and_with_no_move_cap_each_family_is_spread_within_one(
      @ForAll("fleets") Fleet fleet) {
    List<AgentAssignment> unpinned =
        fleet.rows().stream()
            .map(
                r ->
                    new AgentAssignment(
                        r.uri(), r.owner(), r.target(), r.epoch(), r.paused(), null))
            .toList();
    Map<AgentUri, AgentAssignment> after =
        apply(unpinned, AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), unpinned, 0));
    fleet
        .wanted()
        .forEach(
            (scheme, agents) -> {
              Set<String> capable = capable(fleet.nodes(), scheme);
              if (capable.isEmpty()) {
                return;
              }
              Map<String, Integer> load = new HashMap<>();
              capable.forEach(n -> load.put(n, 0));
              agents.stream()
                  .map(after::get)
                  .filter(r -> r != null && !r.paused())
                  .forEach(r -> load.merge(r.target(), 1, Integer::sum));
              int max = load.values().stream().max(Integer::compare).orElseThrow();
              int min = load.values().stream().min(Integer::compare).orElseThrow();
              assertThat(max - min).as(scheme + " " + load).isLessThanOrEqualTo(1);
            });
  }

  @Property
  void rebalancing_moves_never_exceed_the_cap(
      @ForAll("fleets") Fleet fleet, @ForAll @IntRange(min = 1, max = 5) int cap) {
    List<PlanAction> plan =
        AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), cap);
    assertThat(plan.stream().filter(a -> a instanceof PlanAction.Place p && p.move()).count())
        .isLessThanOrEqualTo(cap);
  }

  @Property
  void only_re_targets_of_agents_nobody_owned_in_the_snapshot_are_free(
      @ForAll("fleets") Fleet fleet) {
    Map<AgentUri, AgentAssignment> before = rowsByUri(fleet.rows());
    for (PlanAction action :
        AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 3)) {
      if (action instanceof PlanAction.Place p) {
        AgentAssignment row = before.get(p.uri());
        assertThat(p.unowned()).as(p.toString()).isEqualTo(row == null || row.owner() == null);
        assertThat(p.move() && p.unowned())
            .as("a counted move is of a running agent: " + p)
            .isFalse();
      }
    }
  }

  @Property
  void claims_between_the_snapshot_and_the_write_never_hand_off_more_running_agents_than_the_cap(
      @ForAll("fleets") Fleet fleet, @ForAll @IntRange(min = 1, max = 5) int cap) {
    List<PlanAction> plan =
        AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), cap);
    // Meanwhile every target claims the unowned rows that name it (the race the store must lose).
    List<AgentAssignment> atWrite =
        fleet.rows().stream()
            .map(
                r ->
                    r.owner() == null && r.target() != null && !r.paused()
                        ? new AgentAssignment(
                            r.uri(), r.target(), r.target(), r.epoch() + 1, false, r.pinnedTo())
                        : r)
            .toList();
    Map<AgentUri, AgentAssignment> after = apply(atWrite, plan);
    long handOffs =
        atWrite.stream()
            .filter(r -> r.owner() != null && r.owner().equals(r.target()) && r.pinnedTo() == null)
            .filter(r -> fleet.wanted().getOrDefault(r.uri().scheme(), Set.of()).contains(r.uri()))
            .filter(r -> capable(fleet.nodes(), r.uri().scheme()).contains(r.owner()))
            .filter(r -> !r.owner().equals(after.get(r.uri()).target()))
            .count();
    assertThat(handOffs).isLessThanOrEqualTo(cap);
  }

  @Property
  void holding_back_new_agents_places_none_of_them_and_still_places_every_agent_that_has_a_row(
      @ForAll("fleets") Fleet fleet) {
    Map<AgentUri, AgentAssignment> before = rowsByUri(fleet.rows());
    List<PlanAction> plan =
        AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 3, false);
    assertThat(plan).noneMatch(a -> a instanceof PlanAction.Place && !before.containsKey(a.uri()));
    Map<AgentUri, AgentAssignment> after = apply(fleet.rows(), plan);
    fleet
        .wanted()
        .forEach(
            (scheme, agents) -> {
              Set<String> capable = capable(fleet.nodes(), scheme);
              for (AgentUri uri : agents) {
                AgentAssignment old = before.get(uri);
                if (capable.isEmpty() || old == null || old.paused() || old.pinnedTo() != null) {
                  continue;
                }
                assertThat(after.get(uri).target())
                    .as("a dead or gone target's agent is never held back: " + uri)
                    .isIn(capable);
              }
            });
  }

  @Test
  void a_held_back_cold_start_is_placed_evenly_once_instead_of_on_the_first_nodes_up() {
    List<NodeInfo> first = activeNodes(1);
    assertThat(AssignmentPlanner.plan(first, TWELVE, List.of(), 2, false)).isEmpty();

    List<NodeInfo> four = activeNodes(4);
    List<AgentAssignment> rows =
        List.copyOf(
            apply(List.of(), AssignmentPlanner.plan(four, TWELVE, List.of(), 2, true)).values());
    assertThat(spread(four, rows)).containsExactly(3, 3, 3, 3);
    assertThat(AssignmentPlanner.plan(four, TWELVE, rows, 2, false)).isEmpty();
  }

  @Property
  void a_converged_fleet_plans_nothing_more(@ForAll("fleets") Fleet fleet) {
    List<PlanAction> first = AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 0);
    List<AgentAssignment> applied = List.copyOf(apply(fleet.rows(), first).values());
    List<PlanAction> second = AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), applied, 0);
    assertThat(second)
        .filteredOn(a -> a instanceof PlanAction.Place || a instanceof PlanAction.Unplace)
        .isEmpty();
  }

  @Property
  void paused_agents_are_never_placed_and_unwanted_ones_are_unplaced_or_retired(
      @ForAll("fleets") Fleet fleet) {
    List<PlanAction> plan = AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 3);
    for (AgentAssignment row : fleet.rows()) {
      boolean wanted =
          fleet.wanted().getOrDefault(row.uri().scheme(), Set.of()).contains(row.uri());
      List<PlanAction> forRow = plan.stream().filter(a -> a.uri().equals(row.uri())).toList();
      if (row.paused() || !wanted) {
        assertThat(forRow).noneMatch(a -> a instanceof PlanAction.Place);
      }
      if (!wanted && row.owner() == null) {
        assertThat(forRow).anyMatch(a -> a instanceof PlanAction.Retire);
      }
      if (!wanted && row.owner() != null && row.target() != null) {
        assertThat(forRow).anyMatch(a -> a instanceof PlanAction.Unplace);
      }
    }
  }

  @Property
  void rows_of_owners_that_are_not_active_are_freed(@ForAll("fleets") Fleet fleet) {
    Set<String> active =
        fleet.nodes().stream()
            .filter(n -> n.status() == NodeStatus.ACTIVE)
            .map(NodeInfo::nodeId)
            .collect(Collectors.toSet());
    List<PlanAction> plan = AssignmentPlanner.plan(fleet.nodes(), fleet.wanted(), fleet.rows(), 3);
    Set<AgentUri> freed =
        plan.stream()
            .filter(a -> a instanceof PlanAction.ReleaseFromDeadOwner)
            .map(PlanAction::uri)
            .collect(Collectors.toSet());
    Set<AgentUri> expected =
        fleet.rows().stream()
            .filter(r -> r.owner() != null && !active.contains(r.owner()))
            .map(AgentAssignment::uri)
            .collect(Collectors.toSet());
    assertThat(freed).isEqualTo(expected);
  }

  // The example fleets: 12 agents of one family.

  private static final Map<String, Set<AgentUri>> TWELVE =
      Map.of(
          "p",
          IntStream.range(0, 12)
              .mapToObj(i -> AgentUri.parse("p://agent-" + i))
              .collect(Collectors.toSet()));

  private static List<NodeInfo> activeNodes(int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> node("node-" + i, NodeStatus.ACTIVE, Set.of("p")))
        .toList();
  }

  private static List<Integer> spread(List<NodeInfo> nodes, List<AgentAssignment> rows) {
    Map<String, Integer> load = new TreeMap<>();
    nodes.forEach(n -> load.put(n.nodeId(), 0));
    rows.forEach(r -> load.merge(r.target(), 1, Integer::sum));
    return new ArrayList<>(load.values());
  }

  private static List<AgentAssignment> converge(List<NodeInfo> nodes, List<AgentAssignment> rows) {
    return List.copyOf(apply(rows, AssignmentPlanner.plan(nodes, TWELVE, rows, 0)).values());
  }

  @Test
  void
      twelve_agents_go_twelve_then_six_six_then_three_three_three_three_and_only_fixes_imbalance() {
    List<AgentAssignment> one = converge(activeNodes(1), List.of());
    assertThat(spread(activeNodes(1), one)).containsExactly(12);

    List<AgentAssignment> two = converge(activeNodes(2), one);
    assertThat(spread(activeNodes(2), two)).containsExactly(6, 6);
    assertThat(moved(one, two)).isEqualTo(6);

    List<AgentAssignment> four = converge(activeNodes(4), two);
    assertThat(spread(activeNodes(4), four)).containsExactly(3, 3, 3, 3);
    assertThat(moved(two, four)).isEqualTo(6);

    List<NodeInfo> three = activeNodes(4).subList(1, 4);
    List<AgentAssignment> afterLoss = converge(three, four);
    assertThat(spread(three, afterLoss)).containsExactly(4, 4, 4);
    assertThat(moved(four, afterLoss)).as("only the lost node's three agents move").isEqualTo(3);
  }

  @Test
  void a_balanced_fleet_plans_nothing() {
    List<AgentAssignment> rows = converge(activeNodes(3), List.of());
    assertThat(AssignmentPlanner.plan(activeNodes(3), TWELVE, rows, 0)).isEmpty();
  }

  @Test
  void the_move_cap_spreads_a_rebalance_over_several_passes() {
    List<AgentAssignment> rows =
        converge(activeNodes(1), List.of()).stream()
            .map(r -> new AgentAssignment(r.uri(), r.target(), r.target(), 1, false, null))
            .toList();
    List<NodeInfo> four = activeNodes(4);
    int passes = 0;
    while (!AssignmentPlanner.plan(four, TWELVE, rows, 2).isEmpty()) {
      rows = List.copyOf(apply(rows, AssignmentPlanner.plan(four, TWELVE, rows, 2)).values());
      passes++;
    }
    assertThat(passes).isEqualTo(5);
    assertThat(spread(four, rows)).containsExactly(3, 3, 3, 3);
  }

  @Test
  void agents_nobody_runs_yet_move_freely_only_running_ones_count_against_the_cap() {
    List<AgentAssignment> placed = converge(activeNodes(1), List.of());
    List<NodeInfo> four = activeNodes(4);

    List<AgentAssignment> unowned =
        List.copyOf(apply(placed, AssignmentPlanner.plan(four, TWELVE, placed, 1)).values());
    assertThat(spread(four, unowned))
        .as("unclaimed agents rebalance at once")
        .containsExactly(3, 3, 3, 3);

    List<AgentAssignment> running =
        placed.stream()
            .map(r -> new AgentAssignment(r.uri(), r.target(), r.target(), 1, false, null))
            .toList();
    List<PlanAction> plan = AssignmentPlanner.plan(four, TWELVE, running, 1);
    assertThat(plan).hasSize(1).allMatch(a -> a instanceof PlanAction.Place p && p.move());
  }

  @Test
  void a_pinned_agent_goes_to_its_node_and_a_pin_to_an_absent_node_waits() {
    AgentUri pinned = AgentUri.parse("p://agent-0");
    AgentUri waiting = AgentUri.parse("p://agent-1");
    List<AgentAssignment> rows =
        List.of(
            new AgentAssignment(pinned, null, "node-0", 1, false, "node-2"),
            new AgentAssignment(waiting, null, null, 1, false, "nowhere"));

    List<PlanAction> plan = AssignmentPlanner.plan(activeNodes(3), TWELVE, rows, 0);
    Map<AgentUri, AgentAssignment> after = apply(rows, plan);

    assertThat(after.get(pinned).target()).isEqualTo("node-2");
    assertThat(plan).contains(new PlanAction.Place(pinned, "node-2", false, true));
    assertThat(after.get(waiting).target()).isNull();
  }

  private static int moved(List<AgentAssignment> before, List<AgentAssignment> after) {
    Map<AgentUri, String> old = new HashMap<>();
    before.forEach(r -> old.put(r.uri(), r.target()));
    Set<AgentUri> changed = new HashSet<>();
    after.forEach(
        r -> {
          if (old.containsKey(r.uri()) && !r.target().equals(old.get(r.uri()))) {
            changed.add(r.uri());
          }
        });
    return changed.size();
  }
}
