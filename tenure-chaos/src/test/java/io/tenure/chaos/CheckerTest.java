package io.tenure.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.chaos.HistoryEvent.Kind;
import io.tenure.server.Json;
import io.tenure.spi.ScheduleFiring;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The checker's definitions, one rule per test: a clean run, each invariant violated exactly once
 * beside the near miss that must not count, and the times on a hand-computed run.
 */
class CheckerTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final String ORDERS = "orders";
  private static final String KEY = "customer-3";
  private static final String A = "projection://a";
  private static final String B = "projection://b";
  private static final String C = "projection://c";

  // ---- a clean run

  @Test
  void a_clean_run_is_safe_with_every_count_zero() {
    Timeline h =
        new Timeline()
            .leader("n1", 1)
            .enqueued(1, ORDERS, KEY)
            .enqueued(2, ORDERS, KEY)
            .enqueued(3, ORDERS, null)
            .handled(3, ORDERS, null, "n2")
            .handled(1, ORDERS, KEY, "n1")
            .handled(2, ORDERS, KEY, "n2")
            .wrote(A, "n1", 1)
            .wrote(A, "n1", 1);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n1")));

    assertThat(report)
        .isEqualTo(
            new ChaosReport(
                3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, null,
                Map.of()));
    assertThat(report.safe()).isTrue();
  }

  // ---- lost, stranded, dead

  @Test
  void a_message_never_handled_and_deleted_is_lost() {
    Timeline h = new Timeline().enqueued(7, ORDERS, KEY);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.lost()).isEqualTo(1);
    assertThat(report.stranded()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples())
        .containsEntry(
            "lost",
            List.of("message 7 (orders, key customer-3) never handled, final status deleted"));
  }

  @Test
  void a_message_never_handled_but_done_is_lost() {
    Timeline h = new Timeline().enqueued(7, ORDERS, null);

    ChaosReport report = Checker.check(h.events(), end(Map.of(7L, "DONE"), Map.of()));

    assertThat(report.lost()).isEqualTo(1);
    assertThat(report.examples().get("lost"))
        .containsExactly("message 7 (orders, no key) never handled, final status DONE");
  }

  @Test
  void a_dead_message_is_dead_not_lost() {
    Timeline h = new Timeline().enqueued(7, ORDERS, KEY);

    ChaosReport report = Checker.check(h.events(), end(Map.of(7L, "DEAD"), Map.of()));

    assertThat(report.dead()).isEqualTo(1);
    assertThat(report.lost()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_message_never_handled_and_still_pending_is_stranded() {
    Timeline h =
        new Timeline()
            .enqueued(7, ORDERS, KEY)
            .enqueued(8, ORDERS, null)
            .handled(8, ORDERS, null, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(7L, "PENDING"), Map.of()));

    assertThat(report.stranded()).isEqualTo(1);
    assertThat(report.lost()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("stranded"))
        .containsExactly("message 7 (orders, key customer-3) never handled, still PENDING");
  }

  @Test
  void a_handled_message_whose_outcome_was_not_written_is_neither_lost_nor_stranded() {
    Timeline h = new Timeline().enqueued(7, ORDERS, KEY).handled(7, ORDERS, KEY, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(7L, "INFLIGHT"), Map.of()));

    assertThat(report.lost()).isZero();
    assertThat(report.stranded()).isZero();
    assertThat(report.safe()).isTrue();
    assertThat(report.examples()).containsOnlyKeys("handledOutcomeNotWritten");
    assertThat(report.examples().get("handledOutcomeNotWritten"))
        .containsExactly(
            "message 7 (orders, key customer-3) handled, outcome not written (still INFLIGHT)");
  }

  // ---- duplicates

  @Test
  void a_duplicate_delivery_is_counted_but_the_run_stays_safe() {
    Timeline h =
        new Timeline()
            .enqueued(7, ORDERS, KEY)
            .handled(7, ORDERS, KEY, "n1")
            .handled(7, ORDERS, KEY, "n2");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.duplicateDeliveries()).isEqualTo(1);
    assertThat(report.handled()).isEqualTo(1);
    assertThat(report.safe()).isTrue();
    assertThat(report.examples().get("duplicateDeliveries"))
        .containsExactly("message 7 (orders, key customer-3) handled 2 times, by n1, n2");
  }

  @Test
  void duplicate_deliveries_sum_the_handlings_beyond_the_first() {
    Timeline h =
        new Timeline()
            .enqueued(1, ORDERS, null)
            .enqueued(2, ORDERS, null)
            .handled(1, ORDERS, null, "n1")
            .handled(1, ORDERS, null, "n1")
            .handled(2, ORDERS, null, "n1")
            .handled(2, ORDERS, null, "n2")
            .handled(2, ORDERS, null, "n3");

    assertThat(Checker.check(h.events(), end(Map.of(), Map.of())).duplicateDeliveries())
        .isEqualTo(3);
  }

  // ---- FIFO per key

  @Test
  void a_message_handled_before_an_older_one_of_its_key_is_an_order_violation() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handled(42, ORDERS, KEY, "n1")
            .handled(41, ORDERS, KEY, "n2");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.fifoOrderViolations()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("fifoOrderViolations"))
        .containsExactly("message 42 (orders, key customer-3) handled before 41");
  }

  @Test
  void a_message_handled_ahead_of_several_older_ones_counts_once() {
    Timeline h =
        new Timeline()
            .enqueued(1, ORDERS, KEY)
            .enqueued(2, ORDERS, KEY)
            .enqueued(3, ORDERS, KEY)
            .handled(3, ORDERS, KEY, "n1")
            .handled(1, ORDERS, KEY, "n1")
            .handled(2, ORDERS, KEY, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.fifoOrderViolations()).isEqualTo(1);
    assertThat(report.examples().get("fifoOrderViolations"))
        .containsExactly("message 3 (orders, key customer-3) handled before 1");
  }

  @Test
  void a_dead_head_never_handled_does_not_block_its_key() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handled(42, ORDERS, KEY, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(41L, "DEAD"), Map.of()));

    assertThat(report.fifoOrderViolations()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_stranded_head_is_stranded_not_an_order_violation() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handled(42, ORDERS, KEY, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(41L, "INFLIGHT"), Map.of()));

    assertThat(report.fifoOrderViolations()).isZero();
    assertThat(report.stranded()).isEqualTo(1);
  }

  @Test
  void redelivering_an_older_message_after_a_younger_one_is_not_an_order_violation() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handled(41, ORDERS, KEY, "n1")
            .handled(42, ORDERS, KEY, "n2")
            .handled(41, ORDERS, KEY, "n1");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.fifoOrderViolations()).isZero();
    assertThat(report.duplicateDeliveries()).isEqualTo(1);
  }

  @Test
  void different_keys_and_unordered_messages_may_be_handled_in_any_order() {
    Timeline h =
        new Timeline()
            .enqueued(1, ORDERS, "k1")
            .enqueued(2, ORDERS, "k2")
            .enqueued(3, ORDERS, null)
            .enqueued(4, ORDERS, null)
            .enqueued(5, "invoices", "k1")
            .handled(5, "invoices", "k1", "n1")
            .handled(4, ORDERS, null, "n1")
            .handled(3, ORDERS, null, "n1")
            .handled(2, ORDERS, "k2", "n1")
            .handled(1, ORDERS, "k1", "n1");

    assertThat(Checker.check(h.events(), end(Map.of(), Map.of())).fifoOrderViolations()).isZero();
  }

  @Test
  void an_exclusive_queue_is_one_sequence() {
    String ledger = "ledger";
    String all = HistoryEvent.EXCLUSIVE;
    Timeline h =
        new Timeline()
            .enqueued(1, ledger, all)
            .enqueued(2, ledger, all)
            .enqueued(3, ledger, all)
            .handled(1, ledger, all, "n1")
            .handled(3, ledger, all, "n1")
            .handled(2, ledger, all, "n2");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.fifoOrderViolations()).isEqualTo(1);
    assertThat(report.examples().get("fifoOrderViolations"))
        .containsExactly("message 3 (ledger, exclusive) handled before 2");
  }

  // ---- leader writes

  @Test
  void a_leader_write_begun_after_a_newer_leader_and_applied_is_a_stale_epoch_write() {
    Timeline h =
        new Timeline()
            .leader("n1", 1)
            .leaderWrite("n1", 1, "w1")
            .applied("n1", 1, "w1")
            .leader("n2", 2)
            .leaderWrite("n1", 1, "w2")
            .applied("n1", 1, "w2");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.staleEpochWritesAccepted()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("staleEpochWritesAccepted"))
        .containsExactly(
            "leader write placeAll by n1 at epoch 1 began after n2 led at epoch 2, and was applied");
  }

  @Test
  void a_deposed_leader_write_that_was_refused_is_not_counted() {
    Timeline h =
        new Timeline()
            .leader("n1", 1)
            .leader("n2", 2)
            .leaderWrite("n1", 1, "w1")
            .leaderWrite("n2", 2, "w2")
            .applied("n2", 2, "w2");

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.staleEpochWritesAccepted()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_leader_write_begun_before_the_next_leader_may_be_applied_after_it() {
    // Its transaction began while the lease held; the record of its success may come later.
    Timeline h =
        new Timeline()
            .leader("n1", 1)
            .leaderWrite("n1", 1, "w1")
            .leader("n2", 2)
            .applied("n1", 1, "w1");

    assertThat(Checker.check(h.events(), end(Map.of(), Map.of())).staleEpochWritesAccepted())
        .isZero();
  }

  // ---- one message of a key in flight

  @Test
  void a_message_started_before_the_older_one_of_its_key_finished_is_a_key_overlap() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handling(41, KEY, "n1", 1)
            .handling(42, KEY, "n2", 1)
            .handled(41, KEY, "n1", 1)
            .handled(42, KEY, "n2", 1);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.keyOverlaps()).isEqualTo(1);
    assertThat(report.fifoOrderViolations()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("keyOverlaps"))
        .containsExactly(
            "message 42 (orders, key customer-3) started on n2 while message 41 was still being"
                + " handled on n1 (attempt 1)");
  }

  @Test
  void a_superseded_claim_still_running_when_the_key_moves_on_is_not_an_overlap() {
    // n1 froze inside message 41; its lease lapsed; n2 took 41 over and finished it; 42 went on
    // while the frozen handler had not returned yet.
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handling(41, KEY, "n1", 1)
            .handling(41, KEY, "n2", 2)
            .handled(41, KEY, "n2", 2)
            .handling(42, KEY, "n3", 1)
            .handled(41, KEY, "n1", 1)
            .handled(42, KEY, "n3", 1);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.keyOverlaps()).isZero();
    assertThat(report.duplicateDeliveries()).isEqualTo(1);
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_key_moving_on_after_a_superseded_claim_finished_is_an_overlap() {
    // What an unchecked claim token allows: the frozen node's late done frees the key while the
    // message's current claim is still being handled.
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handling(41, KEY, "n1", 1)
            .handling(41, KEY, "n2", 2)
            .handled(41, KEY, "n1", 1)
            .handling(42, KEY, "n3", 1)
            .handled(41, KEY, "n2", 2)
            .handled(42, KEY, "n3", 1);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.keyOverlaps()).isEqualTo(1);
    assertThat(report.examples().get("keyOverlaps"))
        .containsExactly(
            "message 42 (orders, key customer-3) started on n3 while message 41 was still being"
                + " handled on n2 (attempt 2)");
  }

  @Test
  void of_two_handlings_with_one_attempt_number_the_later_is_the_finishing_one() {
    // A release (or an exclusive queue's refused resolve) gives the attempt back: the next claim
    // has the same number, and it is the later one that frees the key.
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .handling(41, KEY, "n1", 1)
            .handled(41, KEY, "n1", 1)
            .handling(41, KEY, "n2", 1)
            .handling(42, KEY, "n3", 1)
            .handled(41, KEY, "n2", 1)
            .handled(42, KEY, "n3", 1);

    assertThat(Checker.check(h.events(), end(Map.of(), Map.of())).keyOverlaps()).isEqualTo(1);
  }

  @Test
  void messages_of_different_keys_may_be_in_flight_together() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, "k1")
            .enqueued(42, ORDERS, "k2")
            .handling(41, "k1", "n1", 1)
            .handling(42, "k2", "n2", 1)
            .handled(42, "k2", "n2", 1)
            .handled(41, "k1", "n1", 1);

    assertThat(Checker.check(h.events(), end(Map.of(), Map.of())).keyOverlaps()).isZero();
  }

  // ---- fenced writes: stale epochs and overlaps

  @Test
  void a_write_accepted_below_an_accepted_epoch_is_a_stale_epoch_write() {
    Timeline h = new Timeline().wrote(A, "n1", 4).wrote(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.staleEpochWritesAccepted()).isEqualTo(1);
    assertThat(report.agentOverlaps()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("staleEpochWritesAccepted"))
        .containsExactly("agent projection://a: n1 wrote at epoch 3 after epoch 4 was accepted");
  }

  @Test
  void a_rejected_write_below_an_accepted_epoch_is_not_a_stale_write() {
    Timeline h =
        new Timeline()
            .fault("pause", "n1")
            .wrote(A, "n2", 4)
            .faultEnd("resume", "n1")
            .rejected(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.staleEpochWritesAccepted()).isZero();
    assertThat(report.agentOverlaps()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_healthy_node_whose_write_is_refused_was_still_running_a_taken_agent() {
    // n1 was never faulted: two-phase hand-off should have stopped it before n2 started.
    Timeline h = new Timeline().wrote(A, "n1", 3).wrote(A, "n2", 4).rejected(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isEqualTo(1);
    assertThat(report.staleEpochWritesAccepted()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("agentOverlaps"))
        .containsExactly(
            "agent projection://a: n1 (epoch 3) still ran it after another node had taken it (its write was refused), unfaulted");
  }

  @Test
  void a_fault_on_every_node_excuses_refused_writes_from_any_node_for_the_grace() {
    Timeline h =
        new Timeline()
            .at(0)
            .fault("slow-db", HistoryEvent.EVERY_NODE)
            .faultEnd("released after 3000 ms", HistoryEvent.EVERY_NODE)
            .at(1_000)
            .wrote(A, "n2", 4)
            .at(5_000)
            .rejected(A, "n1", 3)
            .at(20_000)
            .rejected(A, "n3", 2);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isEqualTo(1);
    assertThat(report.examples().get("agentOverlaps")).singleElement().asString().contains("n3");
  }

  @Test
  void a_kill_or_stop_gives_no_grace_its_restarted_incarnation_is_healthy() {
    Timeline h =
        new Timeline()
            .at(0)
            .fault("kill", "n1")
            .faultEnd("restart", "n1")
            .at(1_000)
            .wrote(A, "n2", 4)
            .at(2_000)
            .rejected(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isEqualTo(1);
  }

  @Test
  void
      agent_rows_edited_by_hand_give_no_grace_a_refused_write_or_a_shared_epoch_after_them_overlaps() {
    // The nodes stay healthy while their rows are deleted or rewritten: nothing excuses an owner
    // superseded while it runs, or two owners at one epoch.
    Timeline h =
        new Timeline()
            .at(0)
            .fault("agent-rows", "n1")
            .faultEnd("deleted projection://a", "n1")
            .at(1_000)
            .wrote(A, "n1", 3)
            .at(1_500)
            .wrote(A, "n2", 3)
            .at(2_000)
            .wrote(A, "n2", 4)
            .at(2_500)
            .rejected(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isEqualTo(2);
    assertThat(report.examples().get("agentOverlaps"))
        .anySatisfy(e -> assertThat(e).contains("both wrote at epoch 3"))
        .anySatisfy(e -> assertThat(e).contains("unfaulted"));
  }

  @Test
  void refused_writes_are_expected_only_within_the_grace_after_a_fault_on_that_node() {
    Timeline h =
        new Timeline()
            .at(0)
            .fault("kill-connections", "n1")
            .faultEnd("killed 4 sessions", "n1")
            .at(1_000)
            .wrote(A, "n2", 4)
            .at(9_000)
            .rejected(A, "n1", 3)
            .at(10_500)
            .rejected(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isEqualTo(1);
  }

  @Test
  void two_nodes_writing_at_one_epoch_overlap_once_per_pair() {
    Timeline h =
        new Timeline().wrote(A, "n1", 4).wrote(A, "n2", 4).wrote(A, "n1", 4).wrote(A, "n2", 4);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.agentOverlaps()).isEqualTo(1);
    assertThat(report.staleEpochWritesAccepted()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("agentOverlaps"))
        .containsExactly("agent projection://a: n1 and n2 both wrote at epoch 4");
  }

  @Test
  void a_superseded_owner_whose_write_is_accepted_overlaps_and_writes_a_stale_epoch() {
    Timeline h = new Timeline().wrote(A, "n1", 3).wrote(A, "n2", 4).wrote(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.agentOverlaps()).isEqualTo(1);
    assertThat(report.staleEpochWritesAccepted()).isEqualTo(1);
    assertThat(report.examples().get("agentOverlaps"))
        .containsExactly("agent projection://a: n1 (epoch 3) wrote after n2 (epoch 4) had written");
  }

  @Test
  void a_resumed_paused_owner_whose_writes_are_rejected_is_not_an_overlap() {
    Timeline h =
        new Timeline()
            .wrote(A, "n1", 3)
            .fault("pause", "n1")
            .wrote(A, "n2", 4)
            .faultEnd("resume", "n1")
            .rejected(A, "n1", 3)
            .rejected(A, "n1", 3)
            .wrote(A, "n2", 4);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2")));

    assertThat(report.agentOverlaps()).isZero();
    assertThat(report.staleEpochWritesAccepted()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_node_reacquiring_an_agent_at_a_higher_epoch_is_not_an_overlap() {
    Timeline h =
        new Timeline()
            .wrote(A, "n1", 3)
            .wrote(A, "n1", 4)
            .wrote(B, "n1", 1)
            .wrote(B, "n2", 2)
            .wrote(B, "n1", 3)
            .wrote(B, "n2", 4);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.agentOverlaps()).isZero();
    assertThat(report.safe()).isTrue();
  }

  // ---- convergence of the final assignment

  @Test
  void an_agent_owned_by_a_node_that_is_not_live_is_unconverged() {
    ChaosReport report = Checker.check(List.of(), end(Map.of(), Map.of(A, "n1", B, "n3")));

    assertThat(report.unconvergedAgents()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("unconvergedAgents"))
        .containsExactly("agent projection://b is owned by n3, which is not live");
  }

  @Test
  void an_expected_agent_without_an_owner_is_unconverged() {
    Map<String, @Nullable String> owners = new HashMap<>();
    owners.put(A, "n1");
    owners.put(B, null);
    FinalState end = new FinalState(Map.of(), Set.of(A, B, C), owners, Set.of("n1", "n2"));

    ChaosReport report = Checker.check(List.of(), end);

    assertThat(report.unconvergedAgents()).isEqualTo(2);
    assertThat(report.examples().get("unconvergedAgents"))
        .containsExactly("agent projection://b has no owner", "agent projection://c has no owner");
  }

  // ---- fail-over and convergence times

  /**
   * Hand-computed. Fail-over: kill -9 n1 (leader, epoch 1) at 1000, n2 leads at 1800: 800; pause n2
   * (leader) at 5000, n2 leads again at epoch 3 at 5300: 300; kill n3 (not leader): none; stop n2
   * (leader) at 13000, n1 leads at 15000: 2000. p50 of [300, 800, 2000] = 800, max 2000.
   * Convergence: kill n1 owning a, b: moved at 1500, 2100: 1100; pause n2 owning a, c: moved at
   * 5600, 5400: 600; kill n3 owning a, b, c: 9200, 9400, 10200: 1200; stop n2 owning a, b, c:
   * 14000, 14500, 15500: 2500. p50 of [600, 1100, 1200, 2500] = 1100 (2nd of 4), max 2500.
   * kill-connections is a fault but not a disruptive one.
   */
  @Test
  void failover_and_convergence_times_follow_the_hand_computed_run() {
    Timeline h =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .at(10)
            .wrote(A, "n1", 1)
            .at(20)
            .wrote(B, "n1", 1)
            .at(30)
            .wrote(C, "n2", 1)
            .at(1000)
            .fault("kill -9", "n1")
            .at(1500)
            .wrote(A, "n2", 2)
            .at(1800)
            .leader("n2", 2)
            .at(2100)
            .wrote(B, "n3", 2)
            .at(5000)
            .fault("pause", "n2")
            .at(5300)
            .leader("n2", 3)
            .at(5400)
            .wrote(C, "n3", 2)
            .at(5600)
            .wrote(A, "n3", 3)
            .at(6000)
            .faultEnd("resume", "n2")
            .at(6100)
            .rejected(A, "n2", 2)
            .at(9000)
            .fault("kill", "n3")
            .at(9200)
            .wrote(A, "n2", 4)
            .at(9400)
            .wrote(B, "n2", 3)
            .at(10200)
            .wrote(C, "n2", 3)
            .at(12000)
            .fault("kill-connections", "n2")
            .at(13000)
            .fault("stop", "n2")
            .at(14000)
            .wrote(A, "n1", 5)
            .at(14500)
            .wrote(B, "n1", 4)
            .at(15000)
            .leader("n1", 4)
            .at(15500)
            .wrote(C, "n1", 4);

    ChaosReport report =
        Checker.check(h.events(), end(Map.of(), Map.of(A, "n1", B, "n1", C, "n1")));

    assertThat(report.faults()).isEqualTo(5);
    assertThat(report.failoverMs()).isEqualTo(new ChaosReport.Millis(800, 2000));
    assertThat(report.convergenceMs()).isEqualTo(new ChaosReport.Millis(1100, 2500));
    assertThat(report.unfailedOver()).isZero();
    assertThat(report.examples()).isEmpty();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_leader_fault_never_followed_by_a_new_leader_is_unfailed_over_but_not_unsafe() {
    Timeline h =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .at(10)
            .wrote(A, "n1", 1)
            .at(1000)
            .fault("pause", "n1")
            .at(1200)
            .faultEnd("resume", "n1")
            .at(1500)
            .leader("n1", 1)
            .at(1600)
            .wrote(A, "n1", 1);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n1")));

    assertThat(report.unfailedOver()).isEqualTo(1);
    assertThat(report.failoverMs()).isNull();
    assertThat(report.convergenceMs()).isNull();
    assertThat(report.unconvergedAgents()).isZero();
    assertThat(report.safe()).isTrue();
    assertThat(report.examples().get("unfailedOver"))
        .containsExactly(
            "leader n1 (epoch 1) faulted at fault 3 'pause' (2025-01-01T00:00:01Z); no new leader"
                + " followed");
    assertThat(report.examples().get("agentsNotMovedAfterFault"))
        .containsExactly(
            "agent projection://a, owned by n1 at fault 3 'pause' (2025-01-01T00:00:01Z), never"
                + " written at a newer epoch");
  }

  @Test
  void a_fault_of_a_node_that_is_not_leader_has_no_failover_time() {
    Timeline h =
        new Timeline().at(0).leader("n1", 1).at(1000).fault("kill", "n2").at(2000).leader("n3", 2);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.failoverMs()).isNull();
    assertThat(report.unfailedOver()).isZero();
    assertThat(report.faults()).isEqualTo(1);
  }

  @Test
  void a_convergence_counts_only_the_agents_that_moved_and_lists_the_rest() {
    Timeline h =
        new Timeline()
            .at(0)
            .wrote(A, "n3", 1)
            .wrote(B, "n3", 1)
            .at(1000)
            .fault("kill", "n3")
            .at(1700)
            .wrote(A, "n2", 2);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n2", B, "n3")));

    assertThat(report.convergenceMs()).isEqualTo(new ChaosReport.Millis(700, 700));
    assertThat(report.unconvergedAgents())
        .isEqualTo(1); // the final state, not the history, decides
    assertThat(report.examples().get("agentsNotMovedAfterFault")).hasSize(1);
    assertThat(report.examples().get("unconvergedAgents")).hasSize(1);
  }

  @Test
  void an_agent_given_back_to_the_restarted_node_converges_at_its_new_epoch() {
    // A killed node starts again under its name; the leader may give it the agent back. That is
    // a new ownership (a higher epoch), not an agent that never moved.
    Timeline h =
        new Timeline()
            .at(0)
            .wrote(A, "n3", 1)
            .at(1000)
            .fault("kill", "n3")
            .at(7500)
            .wrote(A, "n3", 2)
            .at(400_000)
            .wrote(A, "n1", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of(A, "n1")));

    assertThat(report.convergenceMs()).isEqualTo(new ChaosReport.Millis(6500, 6500));
    assertThat(report.examples()).doesNotContainKey("agentsNotMovedAfterFault");
  }

  @Test
  void nearest_rank_median_is_the_ceil_half_th_smallest() {
    assertThat(ChaosReport.Millis.of(List.of())).isNull();
    assertThat(ChaosReport.Millis.of(List.of(5L))).isEqualTo(new ChaosReport.Millis(5, 5));
    assertThat(ChaosReport.Millis.of(List.of(4L, 1L, 3L, 2L)))
        .isEqualTo(new ChaosReport.Millis(2, 4));
    assertThat(ChaosReport.Millis.of(List.of(9L, 1L, 5L))).isEqualTo(new ChaosReport.Millis(5, 9));
  }

  // ---- order, determinism, input checks

  @Test
  void events_at_one_instant_are_ordered_by_id() {
    Timeline h =
        new Timeline()
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .at(500)
            .handled(41, ORDERS, KEY, "n1")
            .at(500)
            .handled(42, ORDERS, KEY, "n1");
    List<HistoryEvent> reversed = new ArrayList<>(h.events());
    Collections.reverse(reversed);

    assertThat(Checker.check(reversed, end(Map.of(), Map.of())).fifoOrderViolations()).isZero();
  }

  @Test
  void the_report_does_not_depend_on_the_order_the_history_arrives_in() {
    Timeline h =
        new Timeline()
            .enqueued(1, ORDERS, KEY)
            .enqueued(2, ORDERS, KEY)
            .enqueued(3, ORDERS, KEY)
            .handled(2, ORDERS, KEY, "n1")
            .handled(1, ORDERS, KEY, "n1")
            .handled(1, ORDERS, KEY, "n2")
            .leader("n1", 1)
            .wrote(A, "n1", 1)
            .fault("kill", "n1")
            .wrote(A, "n2", 2)
            .wrote(A, "n1", 1)
            .leader("n2", 2);
    FinalState end = end(Map.of(3L, "PENDING"), Map.of(A, "n2"));
    List<HistoryEvent> shuffled = new ArrayList<>(h.events());
    Collections.shuffle(shuffled, new Random(7));

    assertThat(Checker.check(shuffled, end)).isEqualTo(Checker.check(h.events(), end));
  }

  @Test
  void a_message_event_without_a_queue_is_refused() {
    HistoryEvent bad =
        new HistoryEvent(9, T0, Kind.HANDLED, "n1", null, null, 4, null, 0, "t", null);

    assertThatThrownBy(() -> Checker.check(List.of(bad), end(Map.of(), Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("history event 9");
  }

  @Test
  void a_final_state_with_an_unknown_status_is_refused() {
    assertThatThrownBy(() -> new FinalState(Map.of(4L, "GONE"), Set.of(), Map.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("message 4 has status GONE");
  }

  // ---- JSON

  @Test
  void the_json_report_names_every_field_and_reads_back() {
    Timeline h =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .enqueued(41, ORDERS, KEY)
            .enqueued(42, ORDERS, KEY)
            .at(100)
            .handled(42, ORDERS, KEY, "n1")
            .at(200)
            .handled(41, ORDERS, KEY, "n1")
            .at(1000)
            .fault("kill", "n1")
            .at(1250)
            .leader("n2", 2);
    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    Map<String, Object> json = Json.parseObject(report.toJson());

    assertThat(json.keySet())
        .containsExactly(
            "enqueued",
            "handled",
            "dead",
            "faults",
            "slotsFired",
            "lockWrites",
            "lockWritesRefused",
            "lost",
            "stranded",
            "duplicateDeliveries",
            "agentOverlaps",
            "staleEpochWritesAccepted",
            "fifoOrderViolations",
            "keyOverlaps",
            "unconvergedAgents",
            "leaderOverlaps",
            "leaderBounces",
            "missedSlots",
            "duplicateSlots",
            "lockOverlaps",
            "cancels",
            "limitExceeded",
            "cancelledCompleted",
            "unfailedOver",
            "failoverMs",
            "convergenceMs",
            "safe",
            "examples");
    assertThat(json)
        .containsEntry("enqueued", 2L)
        .containsEntry("handled", 2L)
        .containsEntry("dead", 0L)
        .containsEntry("faults", 1L)
        .containsEntry("lost", 0L)
        .containsEntry("fifoOrderViolations", 1L)
        .containsEntry("keyOverlaps", 0L)
        .containsEntry("unfailedOver", 0L)
        .containsEntry("failoverMs", Map.of("p50", 250L, "max", 250L))
        .containsEntry("convergenceMs", null)
        .containsEntry("safe", false)
        .containsEntry(
            "examples",
            Map.of(
                "fifoOrderViolations",
                List.of("message 42 (orders, key customer-3) handled before 41")));
  }

  @Test
  void a_clean_json_report_has_empty_examples_and_null_times() {
    Map<String, Object> json =
        Json.parseObject(Checker.check(List.of(), end(Map.of(), Map.of())).toJson());

    assertThat(json)
        .containsEntry("safe", true)
        .containsEntry("examples", Map.of())
        .containsEntry("failoverMs", null)
        .containsEntry("convergenceMs", null);
  }

  // ---- leaders

  @Test
  void a_node_that_goes_on_leading_after_another_began_to_is_a_leader_overlap() {
    Timeline h =
        new Timeline()
            .at(1000)
            .leading("n1", 1, 0)
            .at(3000)
            .leading("n2", 2, 0)
            // n1 was last seen leading at 3400: 400 ms together with n2.
            .at(3500)
            .leadingEnded("n1", 1, 100);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.leaderOverlaps()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("leaderOverlaps"))
        .singleElement()
        .asString()
        .contains("n1 (epoch 1) and n2 (epoch 2) both led for 400 ms");
  }

  @Test
  void a_frozen_leader_whose_last_sample_came_before_its_successor_is_no_overlap() {
    Timeline h =
        new Timeline()
            .at(1000)
            .leading("n1", 1, 0)
            .at(2000)
            .fault("pause", "n1")
            .at(9000)
            .leading("n2", 2, 0)
            .at(14000)
            .faultEnd("resume", "n1")
            // Written on resume: n1 was last seen leading 12,100 ms earlier, at 1,910, before it
            // froze.
            .at(14010)
            .leadingEnded("n1", 1, 12100)
            // Overlaps of at most the tolerance are the write's trip, not two leaders.
            .at(20000)
            .leadingEnded("n2", 2, 0)
            .at(20000 - 50)
            .leading("n3", 3, 0);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.leaderOverlaps()).isZero();
  }

  @Test
  void a_killed_leaders_interval_ends_with_the_kill_and_an_unended_one_runs_to_the_end() {
    Timeline killed =
        new Timeline()
            .at(1000)
            .leading("n1", 1, 0)
            .at(2000)
            .fault("kill leader", "n1")
            .at(2500)
            .leading("n2", 2, 0)
            .at(9000)
            .faultEnd("restart", "n1");
    Timeline neverEnded =
        new Timeline()
            .at(1000)
            .leading("n1", 1, 0)
            .at(2500)
            .leading("n2", 2, 0)
            .at(9000)
            .leader("n2", 2);

    assertThat(Checker.check(killed.events(), end(Map.of(), Map.of())).leaderOverlaps()).isZero();
    assertThat(Checker.check(neverEnded.events(), end(Map.of(), Map.of())).leaderOverlaps())
        .isEqualTo(1);
  }

  @Test
  void a_pause_of_the_leader_followed_by_two_leader_changes_is_a_bounce() {
    Timeline h =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .at(1000)
            .fault("pause leader", "n1")
            .at(6000)
            .leader("n2", 2)
            .at(13000)
            .faultEnd("resume", "n1")
            .at(13030)
            .leader("n3", 3);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.leaderBounces()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
  }

  @Test
  void one_change_per_pause_a_change_after_the_settle_time_or_after_another_fault_is_no_bounce() {
    Timeline once =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .at(1000)
            .fault("pause leader", "n1")
            .at(6000)
            .leader("n2", 2)
            .at(13000)
            .faultEnd("resume", "n1")
            .at(13000 + 5001)
            .leader("n3", 3);
    Timeline otherFault =
        new Timeline()
            .at(0)
            .leader("n1", 1)
            .at(1000)
            .fault("pause", "n1")
            .at(6000)
            .leader("n2", 2)
            .at(7000)
            .fault("kill", "n2")
            .at(7500)
            .leader("n3", 3)
            .at(13000)
            .faultEnd("resume", "n1");

    assertThat(Checker.check(once.events(), end(Map.of(), Map.of())).leaderBounces()).isZero();
    assertThat(Checker.check(otherFault.events(), end(Map.of(), Map.of())).leaderBounces())
        .isZero();
  }

  // ---- schedules

  @Test
  void every_slot_up_to_the_schedules_next_slot_with_one_message_is_clean() {
    ChaosReport report =
        Checker.check(
            new Timeline().declared(SECONDLY, "n1").events(),
            schedulesEnd(row(SECONDLY, second(6), second(8), 0), table(SECONDLY, 1, 2, 3, 4, 5)));

    assertThat(report.slotsFired()).isEqualTo(5);
    assertThat(report.missedSlots()).isZero();
    assertThat(report.duplicateSlots()).isZero();
    assertThat(report.safe()).isTrue();
  }

  @Test
  void a_slot_below_the_schedules_next_slot_that_no_message_carries_is_missed() {
    ChaosReport report =
        Checker.check(
            List.of(),
            schedulesEnd(row(SECONDLY, second(6), second(8), 0), table(SECONDLY, 1, 2, 4, 5)));

    assertThat(report.missedSlots()).isEqualTo(1);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("missedSlots"))
        .containsExactly(
            "every-second: no message for the slot 2025-01-01T00:00:03Z, though its next slot at"
                + " the end was 2025-01-01T00:00:06Z");
  }

  @Test
  void a_slot_the_row_moved_past_is_missed_without_a_message_even_above_the_last_message() {
    ChaosReport report =
        Checker.check(
            List.of(),
            schedulesEnd(row(SECONDLY, second(6), second(8), 0), table(SECONDLY, 1, 2, 3, 4)));

    assertThat(report.missedSlots()).isEqualTo(1);
    assertThat(report.examples().get("missedSlots"))
        .containsExactly(
            "every-second: no message for the slot 2025-01-01T00:00:05Z, though its next slot at"
                + " the end was 2025-01-01T00:00:06Z");
  }

  @Test
  void a_slot_whose_message_left_the_table_but_was_handled_is_not_missed() {
    Timeline h = new Timeline().slotHandled(103, SECONDLY, second(3), "n2");

    ChaosReport report =
        Checker.check(
            h.events(),
            schedulesEnd(row(SECONDLY, second(6), second(8), 0), table(SECONDLY, 1, 2, 4, 5)));

    assertThat(report.missedSlots()).isZero();
    assertThat(report.slotsFired()).isEqualTo(5);
  }

  @Test
  void a_slot_due_at_the_end_is_missed_only_once_it_is_overdue_by_the_settle_time() {
    Map<Long, String> fired = table(SECONDLY, 1, 2, 3, 4, 5);
    Instant next = second(6);

    ChaosReport justDue =
        Checker.check(
            List.of(),
            schedulesEnd(
                row(SECONDLY, next, next.plus(CheckSchedules.SETTLE).minusMillis(1), 0), fired));
    ChaosReport overdue =
        Checker.check(
            List.of(),
            schedulesEnd(row(SECONDLY, next, next.plus(CheckSchedules.SETTLE), 0), fired));

    assertThat(justDue.missedSlots()).isZero();
    assertThat(overdue.missedSlots()).isEqualTo(1);
    assertThat(overdue.examples().get("missedSlots"))
        .containsExactly(
            "every-second: the slot 2025-01-01T00:00:06Z had not fired at the end"
                + " (2025-01-01T00:00:16Z), over 10 s after it was due");
  }

  @Test
  void the_first_slot_after_the_first_declaration_must_have_fired() {
    Timeline early =
        new Timeline().at(500).declared(SECONDLY, "n2").at(2500).declared(SECONDLY, "n1");
    Timeline late = new Timeline().at(2500).declared(SECONDLY, "n1");
    FinalState end = schedulesEnd(row(SECONDLY, second(6), second(8), 0), table(SECONDLY, 3, 4, 5));

    assertThat(Checker.check(early.events(), end).missedSlots()).isEqualTo(2);
    assertThat(Checker.check(late.events(), end).missedSlots()).isZero();
  }

  @Test
  void slots_skipped_by_the_missed_slot_policy_are_missed() {
    ChaosReport report =
        Checker.check(
            List.of(),
            schedulesEnd(row(SECONDLY, second(6), second(8), 2), table(SECONDLY, 1, 2, 3, 4, 5)));

    assertThat(report.missedSlots()).isEqualTo(2);
    assertThat(report.examples().get("missedSlots"))
        .containsExactly("every-second: 2 slots skipped by its missed-slot policy");
  }

  @Test
  void a_declared_schedule_missing_from_the_table_is_missed() {
    FinalState end =
        new FinalState(
            Map.of(), Set.of(), Map.of(), Set.of(), Set.of(SECONDLY), List.of(), Map.of());

    ChaosReport report = Checker.check(List.of(), end);

    assertThat(report.missedSlots()).isEqualTo(1);
    assertThat(report.examples().get("missedSlots"))
        .containsExactly("every-second: no such schedule at the end");
  }

  @Test
  void two_messages_for_one_slot_are_a_duplicate_slot_wherever_each_was_seen() {
    Map<Long, String> messages = new HashMap<>(table(SECONDLY, 1, 2, 3));
    messages.put(7L, slotKey(SECONDLY, second(2)) + "#unsafe-1");
    Timeline h = new Timeline().slotHandled(9, SECONDLY, second(2), "n3");

    ChaosReport report =
        Checker.check(h.events(), schedulesEnd(row(SECONDLY, second(4), second(5), 0), messages));

    assertThat(report.duplicateSlots()).isEqualTo(2);
    assertThat(report.slotsFired()).isEqualTo(3);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("duplicateSlots"))
        .containsExactly("every-second: slot 2025-01-01T00:00:02Z carried by 3 messages (2, 7, 9)");
  }

  @Test
  void one_message_of_a_slot_handled_twice_is_no_duplicate_slot() {
    Timeline h =
        new Timeline()
            .slotHandled(2, SECONDLY, second(2), "n1")
            .slotHandled(2, SECONDLY, second(2), "n2");

    ChaosReport report =
        Checker.check(
            h.events(),
            schedulesEnd(row(SECONDLY, second(4), second(5), 0), table(SECONDLY, 1, 2, 3)));

    assertThat(report.duplicateSlots()).isZero();
    assertThat(report.safe()).isTrue();
  }

  // ---- named locks

  @Test
  void a_write_under_a_lower_token_committed_after_a_higher_one_is_a_lock_overlap() {
    // n1 wrote before its pause (its row's time is early) and committed after n2's write.
    Timeline h =
        new Timeline()
            .at(0)
            .lockWrite(LOCK, "n1", 3, 10)
            .at(100)
            .lockWrite(LOCK, "n1", 3, 12)
            .at(2500)
            .lockWrite(LOCK, "n2", 4, 11);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.lockOverlaps()).isEqualTo(1);
    assertThat(report.lockWrites()).isEqualTo(3);
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("lockOverlaps"))
        .containsExactly(
            "chaos-lock-1: n1's write at token 3 (commit 12) committed after n2's write at token 4"
                + " (commit 11) had been accepted");
  }

  @Test
  void commit_order_not_the_clock_decides_and_refused_writes_do_not_count() {
    // n1's last write's row is timed after n2's first, but it committed first; then n1 is refused.
    Timeline h =
        new Timeline()
            .at(0)
            .lockWrite(LOCK, "n1", 3, 10)
            .at(3000)
            .lockWrite(LOCK, "n1", 3, 11)
            .at(2500)
            .lockWrite(LOCK, "n2", 4, 12)
            .at(4000)
            .lockRefused(LOCK, "n1", 3)
            .lockWrite(LOCK, "n2", 4, 13)
            .lockWrite(OTHER_LOCK, "n1", 1, 14);

    ChaosReport report = Checker.check(h.events(), end(Map.of(), Map.of()));

    assertThat(report.lockOverlaps()).isZero();
    assertThat(report.lockWrites()).isEqualTo(5);
    assertThat(report.lockWritesRefused()).isEqualTo(1);
    assertThat(report.safe()).isTrue();
  }

  @Test
  void two_nodes_writing_under_one_token_overlap_once_per_pair() {
    Timeline twoNodes =
        new Timeline()
            .lockWrite(LOCK, "n1", 5, 1)
            .lockWrite(LOCK, "n2", 5, 2)
            .lockWrite(LOCK, "n1", 5, 3)
            .lockWrite(LOCK, "n2", 5, 4);
    Timeline oneNode =
        new Timeline()
            .lockWrite(LOCK, "n1", 5, 1)
            .lockWrite(LOCK, "n1", 5, 2)
            .lockWrite(LOCK, "n2", 6, 3);

    ChaosReport report = Checker.check(twoNodes.events(), end(Map.of(), Map.of()));

    assertThat(report.lockOverlaps()).isEqualTo(1);
    assertThat(report.examples().get("lockOverlaps"))
        .containsExactly("chaos-lock-1: n1 and n2 both wrote at token 5");
    assertThat(Checker.check(oneNode.events(), end(Map.of(), Map.of())).lockOverlaps()).isZero();
  }

  @Test
  void a_lock_write_without_its_commit_order_is_refused() {
    Timeline h = new Timeline().lockWrite(LOCK, "n1", 5, 0);

    assertThatThrownBy(() -> Checker.check(h.events(), end(Map.of(), Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LOCK_WRITE");
  }

  @Test
  void slot_keys_name_their_schedule_and_slot_and_ignore_a_suffix() {
    Instant slot = Instant.parse("2025-01-01T00:00:03.000250Z");

    assertThat(SlotKey.parse(slotKey("a@b", slot)))
        .contains(new SlotKey("a@b", SlotKey.micros(slot)));
    assertThat(SlotKey.parse(slotKey("s", slot) + "#unsafe-x").orElseThrow().slot())
        .isEqualTo(slot);
    assertThat(SlotKey.parse("tenure-schedule:s:manual:123")).isEmpty();
    assertThat(SlotKey.parse("order-7")).isEmpty();
    assertThat(SlotKey.parse(null)).isEmpty();
  }

  // ---- helpers

  private static final String SECONDLY = "every-second";
  private static final String LOCK = "chaos-lock-1";
  private static final String OTHER_LOCK = "chaos-lock-2";

  private static Instant second(long n) {
    return T0.plusSeconds(n);
  }

  /** A schedule's row at the end: every second, running. */
  private static ScheduleInfo row(String name, Instant next, Instant readAt, long skipped) {
    return new ScheduleInfo(
        Schedule.every(name, Duration.ofSeconds(1)),
        1,
        false,
        null,
        next,
        null,
        null,
        null,
        0,
        skipped,
        1,
        readAt);
  }

  /** The schedules' queue at the end: message {@code n} for the slot {@code second(n)}. */
  private static Map<Long, String> table(String schedule, long... seconds) {
    Map<Long, String> messages = new HashMap<>();
    for (long n : seconds) {
      messages.put(n, slotKey(schedule, second(n)));
    }
    return messages;
  }

  private static FinalState schedulesEnd(ScheduleInfo row, Map<Long, String> messages) {
    return new FinalState(
        Map.of(), Set.of(), Map.of(), Set.of(), Set.of(row.name()), List.of(row), messages);
  }

  /** The dedupe key the stores give a slot's message. */
  private static String slotKey(String schedule, Instant slot) {
    return ScheduleFiring.dedupeKey(schedule, slot);
  }

  /** Expected agents are the owners' keys; live nodes n1 and n2. */
  // ---- limits and cancels

  private static final String LIMITED = ChaosWorkload.LIMITED;

  @Test
  void handlings_within_the_limits_count_nothing_and_one_more_in_flight_counts_once() {
    // The limits: 3 in flight, 1 per group. Four handlings of four groups; the fourth starts
    // while the first three run.
    Timeline within =
        new Timeline()
            .limitedHandling(1, "g0", "n1", 100, "c1")
            .limitedHandling(2, "g1", "n2", 100, "c2")
            .limitedHandling(3, "g2", "n1", 100, "c3")
            .limitedHandled(1, "n1", "c1")
            .limitedHandling(4, "g3", "n2", 100, "c4");
    Timeline over =
        new Timeline()
            .limitedHandling(1, "g0", "n1", 100, "c1")
            .limitedHandling(2, "g1", "n2", 100, "c2")
            .limitedHandling(3, "g2", "n1", 100, "c3")
            .limitedHandling(4, "g3", "n2", 100, "c4");

    ChaosReport ok = Checker.check(within.events(), end(Map.of(), Map.of()));
    ChaosReport bad = Checker.check(over.events(), end(Map.of(), Map.of()));

    assertThat(ok.limitExceeded()).isZero();
    assertThat(bad.limitExceeded()).isEqualTo(1);
    assertThat(bad.safe()).isFalse();
    assertThat(bad.examples().get("limitExceeded").get(0))
        .startsWith("4 messages of limited in flight at")
        .endsWith("(limit 3), the last message 4 on n2");
  }

  @Test
  void two_of_one_group_in_flight_count_and_a_handling_ends_at_its_lease_or_its_handled_event() {
    Timeline sameGroup =
        new Timeline()
            .limitedHandling(1, "g0", "n1", 100, "c1")
            .limitedHandling(2, "g0", "n2", 100, "c2");
    // The first handling's lease ends at 5 ms: a handling of the same group after it is no
    // overlap, even though the first never recorded its end (its node died).
    Timeline afterLease =
        new Timeline()
            .limitedHandling(1, "g0", "n1", 5, "c1")
            .at(10)
            .limitedHandling(2, "g0", "n2", 100, "c2");
    // Finished at 1 ms, its lease notwithstanding.
    Timeline afterHandled =
        new Timeline()
            .limitedHandling(1, "g0", "n1", 100, "c1")
            .limitedHandled(1, "n1", "c1")
            .limitedHandling(2, "g0", "n2", 100, "c2");

    assertThat(Checker.check(sameGroup.events(), end(Map.of(), Map.of())).limitExceeded())
        .isEqualTo(1);
    assertThat(Checker.check(afterLease.events(), end(Map.of(), Map.of())).limitExceeded())
        .isZero();
    assertThat(Checker.check(afterHandled.events(), end(Map.of(), Map.of())).limitExceeded())
        .isZero();
  }

  @Test
  void a_cancelled_message_that_ended_done_or_deleted_completed_and_one_still_cancelled_did_not() {
    Timeline h =
        new Timeline()
            .enqueued(1, ORDERS, null)
            .enqueued(2, ORDERS, null)
            .enqueued(3, ORDERS, null)
            .enqueued(4, ORDERS, null)
            .cancelled(1, "CANCELLED")
            .cancelled(2, "CANCELLED_RUNNING")
            .handled(2, ORDERS, null, "n1")
            .cancelled(3, "CANCELLED_RUNNING")
            .handled(3, ORDERS, null, "n2")
            .cancelled(4, "NOT_FOUND")
            .handled(4, ORDERS, null, "n2");

    ChaosReport report =
        Checker.check(h.events(), end(Map.of(1L, "CANCELLED", 2L, "CANCELLED"), Map.of()));

    assertThat(report.cancels()).isEqualTo(3);
    assertThat(report.cancelledCompleted()).isEqualTo(1);
    assertThat(report.lost()).as("a cancelled message never handled is not lost").isZero();
    assertThat(report.stranded()).isZero();
    assertThat(report.safe()).isFalse();
    assertThat(report.examples().get("cancelledCompleted"))
        .containsExactly(
            "message 3 (orders) cancelled (CANCELLED_RUNNING) but its final status is deleted");
  }

  private static FinalState end(Map<Long, String> statuses, Map<String, String> owners) {
    return new FinalState(statuses, owners.keySet(), owners, Set.of("n1", "n2"));
  }

  /**
   * Builds a history, as a timeline: ids in call order, each event 1 ms after the last unless
   * {@link #at} says.
   */
  private static final class Timeline {
    private final List<HistoryEvent> events = new ArrayList<>();
    private long clock;

    Timeline at(long millis) {
      clock = millis;
      return this;
    }

    Timeline enqueued(long message, String queue, @Nullable String key) {
      return add(Kind.ENQUEUED, "workload", queue, key, message, null, 0, null);
    }

    Timeline handled(long message, String queue, @Nullable String key, String node) {
      return add(Kind.HANDLED, node, queue, key, message, null, 0, null);
    }

    /** A handler began the message under the claim of {@code attempt}. */
    Timeline handling(long message, String key, String node, long attempt) {
      return add(Kind.HANDLING, node, ORDERS, key, message, null, attempt, null);
    }

    /** A handler finished the message under the claim of {@code attempt}. */
    Timeline handled(long message, String key, String node, long attempt) {
      return add(Kind.HANDLED, node, ORDERS, key, message, null, attempt, null);
    }

    /** A handler of the limited queue began a message of {@code group} leased until then. */
    Timeline limitedHandling(
        long message, String group, String node, long leaseUntilMillis, String token) {
      return event(
          Kind.HANDLING,
          node,
          LIMITED,
          message,
          token,
          "group=" + group + " leaseUntil=" + T0.plusMillis(leaseUntilMillis));
    }

    Timeline limitedHandled(long message, String node, String token) {
      return event(Kind.HANDLED, node, LIMITED, message, token, null);
    }

    Timeline cancelled(long message, String outcome) {
      return add(Kind.CANCELLED, "supervisor", ORDERS, null, message, null, 0, outcome);
    }

    private Timeline event(
        Kind kind, String node, String queue, long message, String token, @Nullable String detail) {
      events.add(
          new HistoryEvent(
              events.size() + 1,
              T0.plusMillis(clock++),
              kind,
              node,
              queue,
              null,
              message,
              null,
              1,
              token,
              detail));
      return this;
    }

    Timeline wrote(String agent, String node, long epoch) {
      return add(Kind.FENCED_WRITE_ACCEPTED, node, null, null, 0, agent, epoch, null);
    }

    Timeline rejected(String agent, String node, long epoch) {
      return add(Kind.FENCED_WRITE_REJECTED, node, null, null, 0, agent, epoch, null);
    }

    /** A leader write begins: paired with {@link #applied} by its token. */
    Timeline leaderWrite(String node, long epoch, String token) {
      events.add(
          new HistoryEvent(
              events.size() + 1,
              T0.plusMillis(clock++),
              Kind.LEADER_WRITE,
              node,
              null,
              null,
              0,
              null,
              epoch,
              token,
              "placeAll"));
      return this;
    }

    Timeline applied(String node, long epoch, String token) {
      events.add(
          new HistoryEvent(
              events.size() + 1,
              T0.plusMillis(clock++),
              Kind.LEADER_WRITE_APPLIED,
              node,
              null,
              null,
              0,
              null,
              epoch,
              token,
              "placeAll"));
      return this;
    }

    Timeline leader(String node, long epoch) {
      return add(Kind.LEADER, node, null, null, 0, null, epoch, null);
    }

    /**
     * {@code node} first seen leading at {@code epoch}, {@code agoMillis} before this event's time.
     */
    Timeline leading(String node, long epoch, long agoMillis) {
      return add(Kind.LEADING, node, null, null, agoMillis, null, epoch, null);
    }

    /**
     * {@code node} last seen leading at {@code epoch}, {@code agoMillis} before this event's time.
     */
    Timeline leadingEnded(String node, long epoch, long agoMillis) {
      return add(Kind.LEADING_ENDED, node, null, null, agoMillis, null, epoch, null);
    }

    Timeline fault(String detail, String node) {
      return add(Kind.FAULT, node, null, null, 0, null, 0, detail);
    }

    Timeline faultEnd(String detail, String node) {
      return add(Kind.FAULT_END, node, null, null, 0, null, 0, detail);
    }

    Timeline declared(String schedule, String node) {
      return add(Kind.SCHEDULE_DECLARED, node, null, schedule, 0, null, 0, "CREATED");
    }

    Timeline slotHandled(long message, String schedule, Instant slot, String node) {
      return add(
          Kind.SLOT_HANDLED,
          node,
          "scheduled",
          schedule,
          message,
          null,
          SlotKey.micros(slot),
          slotKey(schedule, slot));
    }

    /** A fenced write under {@code lock} at {@code token}, the {@code order}-th to commit. */
    Timeline lockWrite(String lock, String node, long token, long order) {
      return add(Kind.LOCK_WRITE, node, null, lock, order, null, token, "write");
    }

    Timeline lockRefused(String lock, String node, long token) {
      return add(Kind.LOCK_WRITE_REFUSED, node, null, lock, 0, null, token, "write");
    }

    List<HistoryEvent> events() {
      return List.copyOf(events);
    }

    private Timeline add(
        Kind kind,
        String node,
        @Nullable String queue,
        @Nullable String key,
        long message,
        @Nullable String agent,
        long epoch,
        @Nullable String detail) {
      long id = events.size() + 1;
      String token = kind == Kind.HANDLED || kind == Kind.HANDLING ? "claim-" + id : null;
      events.add(
          new HistoryEvent(
              id,
              T0.plusMillis(clock),
              kind,
              node,
              queue,
              key,
              message,
              agent,
              epoch,
              token,
              detail));
      clock++;
      return this;
    }
  }
}
