package io.tenure.internal.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** SPEC §5.4, case by case. */
class ReconciliationSweepTest {
  private static final String ME = "me";
  private static final String PEER = "peer";
  private final ReconciliationSweep sweep = new ReconciliationSweep();

  private static AgentUri uri(String name) {
    return AgentUri.parse("p://" + name);
  }

  private static AgentAssignment row(String name, String owner, String target) {
    return new AgentAssignment(uri(name), owner, target, 1, false, null);
  }

  private List<SweepAction> sweep(
      List<AgentAssignment> rows, Set<AgentUri> running, Set<AgentUri> busy) {
    return sweep.sweep(ME, rows, running, busy, 1, 0);
  }

  @Test
  void assigned_here_and_not_running_starts_whether_claimed_or_free() {
    assertThat(sweep(List.of(row("a", ME, ME), row("b", null, ME)), Set.of(), Set.of()))
        .containsExactly(new SweepAction.Start(uri("a")), new SweepAction.Start(uri("b")));
  }

  @Test
  void running_while_another_node_owns_the_row_stops_the_local_copy_and_leaves_the_row() {
    assertThat(sweep(List.of(row("a", PEER, PEER)), Set.of(uri("a")), Set.of()))
        .containsExactly(new SweepAction.StopOrphan(uri("a")));
  }

  @Test
  void running_with_the_row_gone_restores_it() {
    assertThat(sweep(List.of(), Set.of(uri("a")), Set.of()))
        .containsExactly(new SweepAction.Restore(uri("a")));
  }

  @Test
  void running_but_sent_elsewhere_or_paused_stops_then_releases() {
    AgentAssignment paused = new AgentAssignment(uri("b"), ME, ME, 1, true, null);
    assertThat(sweep(List.of(row("a", ME, PEER), paused), Set.of(uri("a"), uri("b")), Set.of()))
        .containsExactly(
            new SweepAction.StopAndRelease(uri("a")), new SweepAction.StopAndRelease(uri("b")));
  }

  @Test
  void owned_here_but_not_running_and_sent_elsewhere_releases() {
    assertThat(sweep(List.of(row("a", ME, PEER)), Set.of(), Set.of()))
        .containsExactly(new SweepAction.Release(uri("a")));
  }

  @Test
  void running_and_assigned_here_is_quiet_and_rows_of_others_are_ignored() {
    assertThat(
            sweep(
                List.of(row("a", ME, ME), row("b", PEER, PEER), row("c", null, PEER)),
                Set.of(uri("a")),
                Set.of()))
        .isEmpty();
  }

  @Test
  void a_start_or_stop_in_progress_is_never_repeated() {
    assertThat(
            sweep(
                List.of(row("a", ME, ME), row("b", PEER, PEER)),
                Set.of(uri("b")),
                Set.of(uri("a"), uri("b"))))
        .isEmpty();
  }

  @Test
  void the_cap_works_through_a_backlog_oldest_first_over_later_ticks() {
    List<AgentAssignment> first =
        List.of(row("m1", null, ME), row("m2", null, ME), row("m3", null, ME));
    assertThat(sweep.sweep(ME, first, Set.of(), Set.of(), 1, 2))
        .extracting(SweepAction::uri)
        .containsExactly(uri("m1"), uri("m2"));

    // m1 and m2 are handled; a newer divergence a0 sorts before m3 by name, but m3 is older.
    List<AgentAssignment> second =
        List.of(row("m1", ME, ME), row("m2", ME, ME), row("m3", null, ME), row("a0", null, ME));
    assertThat(sweep.sweep(ME, second, Set.of(uri("m1"), uri("m2")), Set.of(), 2, 1))
        .extracting(SweepAction::uri)
        .containsExactly(uri("m3"));
    assertThat(sweep.sweep(ME, second, Set.of(uri("m1"), uri("m2")), Set.of(), 3, 0))
        .extracting(SweepAction::uri)
        .containsExactly(uri("m3"), uri("a0"));
  }

  @Test
  void a_divergence_that_healed_and_came_back_counts_as_new() {
    sweep.sweep(ME, List.of(row("z", null, ME)), Set.of(), Set.of(), 1, 0);
    sweep.sweep(ME, List.of(row("z", ME, ME)), Set.of(uri("z")), Set.of(), 2, 0);
    List<AgentAssignment> both = List.of(row("z", null, ME), row("y", null, ME));
    sweep.sweep(ME, List.of(row("y", null, ME)), Set.of(), Set.of(), 3, 0);

    assertThat(sweep.sweep(ME, both, Set.of(), Set.of(), 4, 1))
        .extracting(SweepAction::uri)
        .containsExactly(uri("y"));
  }

  @Test
  void running_and_targeted_here_with_no_owner_claims_it_and_owned_here_does_nothing() {
    assertThat(
            sweep(
                List.of(row("a", null, ME), row("b", ME, ME)),
                Set.of(uri("a"), uri("b")),
                Set.of()))
        .containsExactly(new SweepAction.Start(uri("a")));
  }

  @Test
  void divergences_first_seen_on_the_same_tick_go_in_uri_order_whatever_the_rows_order() {
    assertThat(sweep(List.of(row("b", null, ME), row("a", null, ME)), Set.of(), Set.of()))
        .containsExactly(new SweepAction.Start(uri("a")), new SweepAction.Start(uri("b")));
  }
}
