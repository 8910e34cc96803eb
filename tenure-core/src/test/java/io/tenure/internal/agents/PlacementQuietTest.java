package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.MembershipView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When a cold start's agents may be placed: injected monotonic time, database times in the view.
 */
class PlacementQuietTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long MS = 1_000_000L;

  private final AtomicLong nanos = new AtomicLong(42 * MS);
  private final PlacementQuiet quiet =
      new PlacementQuiet(Duration.ofMillis(500), Duration.ofSeconds(5), nanos::get);

  private static NodeInfo node(String id, NodeStatus status, Instant startedAt) {
    return new NodeInfo(
        id, id, "", Set.of("p"), status, startedAt, startedAt, Duration.ofSeconds(3), 1);
  }

  private static MembershipView view(Instant readAt, NodeInfo... nodes) {
    return new MembershipView(nodes.length, List.of(nodes), readAt);
  }

  private void advance(long ms) {
    nanos.addAndGet(ms * MS);
  }

  @Test
  void new_agents_wait_until_the_newest_join_is_quiet_long_enough_by_the_database_clock() {
    NodeInfo old = node("a", NodeStatus.ACTIVE, T0);
    NodeInfo young = node("b", NodeStatus.ACTIVE, T0.plusMillis(900));

    assertThat(quiet.holdFor(view(T0.plusMillis(1_000), old, young), true)).isEqualTo(400 * MS);
    assertThat(quiet.holdFor(view(T0.plusMillis(1_400), old, young), true)).isZero();
  }

  @Test
  void a_node_still_joining_holds_them_a_whole_quiet_period_and_a_dead_one_not_at_all() {
    NodeInfo joining = node("a", NodeStatus.JOINING, T0);
    NodeInfo dead = node("b", NodeStatus.DEAD, T0.plusMillis(9_999));

    assertThat(quiet.holdFor(view(T0.plusSeconds(10), joining, dead), true)).isEqualTo(500 * MS);
    assertThat(
            quiet.holdFor(view(T0.plusSeconds(10), node("a", NodeStatus.ACTIVE, T0), dead), true))
        .isZero();
  }

  @Test
  void membership_that_never_settles_holds_them_at_most_max_from_the_first_pass_that_held_them() {
    for (int pass = 0; pass < 5; pass++) {
      Instant now = T0.plusSeconds(pass);
      assertThat(quiet.holdFor(view(now, node("n" + pass, NodeStatus.JOINING, now)), true))
          .isPositive();
      advance(1_000);
    }
    Instant now = T0.plusSeconds(5);
    assertThat(quiet.holdFor(view(now, node("n5", NodeStatus.JOINING, now)), true)).isZero();
  }

  @Test
  void the_bound_is_never_exceeded_by_the_hold_it_reports() {
    assertThat(quiet.holdFor(view(T0, node("a", NodeStatus.JOINING, T0)), true))
        .isEqualTo(500 * MS);
    advance(4_800);
    assertThat(quiet.holdFor(view(T0, node("a", NodeStatus.JOINING, T0)), true))
        .isEqualTo(200 * MS);
  }

  @Test
  void nothing_new_to_place_holds_nothing_and_restarts_the_bound() {
    NodeInfo joining = node("a", NodeStatus.JOINING, T0);
    quiet.holdFor(view(T0, joining), true);
    advance(6_000);

    assertThat(quiet.holdFor(view(T0, joining), false)).isZero();
    assertThat(quiet.holdFor(view(T0, joining), true))
        .as("a new cold placement gets its own bound")
        .isEqualTo(500 * MS);
  }

  @Test
  void a_zero_quiet_period_places_at_once() {
    PlacementQuiet off = new PlacementQuiet(Duration.ZERO, Duration.ZERO, nanos::get);
    assertThat(off.holdFor(view(T0, node("a", NodeStatus.JOINING, T0)), true)).isZero();
  }
}
