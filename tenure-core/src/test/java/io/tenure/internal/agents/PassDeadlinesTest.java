package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.MembershipView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** When the leader's next pass has work: database times in the view, no clock. */
class PassDeadlinesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration STALE = Duration.ofSeconds(5);
  private static final Duration MAY_RUN = Duration.ofMillis(6_110);
  private static final long MS = 1_000_000L;
  private static final long MARGIN = PassDeadlines.MARGIN.toNanos();

  private static NodeInfo node(String id, NodeStatus status, Instant heartbeatAt) {
    return new NodeInfo(id, id, "", Set.of("p"), status, T0, heartbeatAt, MAY_RUN, 1);
  }

  private static MembershipView view(Instant readAt, NodeInfo... nodes) {
    return new MembershipView(1, List.of(nodes), readAt);
  }

  @Test
  void a_silent_node_is_due_to_be_declared_dead_stale_after_its_last_heartbeat() {
    MembershipView view =
        view(
            T0.plusMillis(4_300),
            node("me", NodeStatus.ACTIVE, T0),
            node("b", NodeStatus.ACTIVE, T0));

    assertThat(PassDeadlines.next(view, "me", STALE, Set.of("b"))).isEqualTo(700 * MS + MARGIN);
  }

  @Test
  void a_dead_node_that_owns_agents_is_due_at_its_published_may_run_deadline_not_before() {
    NodeInfo dead = node("b", NodeStatus.DEAD, T0);

    assertThat(PassDeadlines.next(view(T0.plusMillis(5_100), dead), "me", STALE, Set.of("b")))
        .isEqualTo(1_010 * MS + MARGIN);
    assertThat(PassDeadlines.next(view(T0.plusMillis(5_100), dead), "me", STALE, Set.of()))
        .as("nothing of its left to free")
        .isZero();
    assertThat(PassDeadlines.next(view(T0.plusMillis(6_110), dead), "me", STALE, Set.of("b")))
        .as("past: the pass that read this frees them")
        .isZero();
  }

  @Test
  void the_leader_itself_is_never_due() {
    assertThat(
            PassDeadlines.next(
                view(T0.plusSeconds(1), node("me", NodeStatus.ACTIVE, T0)),
                "me",
                STALE,
                Set.of("me")))
        .isZero();
  }

  record Fleet(List<NodeInfo> nodes, Set<String> owners, Instant readAt) {}

  @Provide
  Arbitrary<Fleet> fleets() {
    Arbitrary<NodeInfo> nodes =
        Combinators.combine(
                Arbitraries.integers().between(0, 9),
                Arbitraries.of(NodeStatus.class),
                Arbitraries.longs().between(0, 20_000),
                Arbitraries.longs().between(1, 10_000))
            .as(
                (id, status, beat, mayRun) ->
                    new NodeInfo(
                        "n" + id,
                        "n" + id,
                        "",
                        Set.of(),
                        status,
                        T0,
                        T0.plusMillis(beat),
                        Duration.ofMillis(mayRun),
                        1));
    return Combinators.combine(
            nodes.list().ofMaxSize(8),
            Arbitraries.integers().between(0, 9).set().ofMaxSize(10),
            Arbitraries.longs().between(0, 30_000))
        .as(
            (list, owners, read) -> {
              Set<String> ids = new HashSet<>();
              List<NodeInfo> unique = new ArrayList<>();
              for (NodeInfo n : list) {
                if (ids.add(n.nodeId())) {
                  unique.add(n);
                }
              }
              Set<String> owning = new HashSet<>();
              owners.forEach(i -> owning.add("n" + i));
              return new Fleet(unique, owning, T0.plusMillis(read));
            });
  }

  /** The pass is due just past the earliest deadline ahead: never before it, nor a tick later. */
  @Property
  void the_next_pass_lands_just_past_the_earliest_deadline_ahead_of_the_read(
      @ForAll("fleets") Fleet fleet) {
    MembershipView view = new MembershipView(1, fleet.nodes(), fleet.readAt());
    long next = PassDeadlines.next(view, "n0", STALE, fleet.owners());
    List<Instant> ahead = new ArrayList<>();
    for (NodeInfo n : fleet.nodes()) {
      Instant due = null;
      if (n.nodeId().equals("n0")) {
        continue;
      }
      if (n.status() == NodeStatus.ACTIVE || n.status() == NodeStatus.JOINING) {
        due = n.heartbeatAt().plus(STALE);
      } else if (fleet.owners().contains(n.nodeId())) {
        due = n.heartbeatAt().plus(n.selfFenceAfter());
      }
      if (due != null && due.isAfter(fleet.readAt())) {
        ahead.add(due);
      }
    }
    if (ahead.isEmpty()) {
      assertThat(next).isZero();
      return;
    }
    Instant at = fleet.readAt().plusNanos(next);
    Instant earliest = ahead.stream().min(Instant::compareTo).orElseThrow();
    assertThat(at).isEqualTo(earliest.plus(PassDeadlines.MARGIN)).isAfter(fleet.readAt());
  }
}
