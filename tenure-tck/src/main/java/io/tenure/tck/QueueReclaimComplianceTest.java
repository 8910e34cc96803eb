package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.ReclaimRule.Dead;
import io.tenure.spi.ReclaimRule.Repend;
import io.tenure.spi.Resolution.Done;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.4 and §6.7: expired claims are re-pended or made dead letters, as the caller's rule
 * decides for each, and finished messages are deleted after their retention, on every provider.
 */
public abstract class QueueReclaimComplianceTest extends QueueKit {
  // ---- reclaim

  @Test
  void an_expired_claim_is_reclaimed_and_its_late_owner_can_no_longer_resolve_it() {
    enqueue(attempts(3));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());
    List<QueueMessage> asked = new ArrayList<>();

    assertThat(queues.reclaimExpired(100, recording(asked, new Repend()))).isEqualTo(1);

    assertThat(asked).as("the rule sees the message as stored").containsExactly(claimed);
    QueueMessage reclaimed = stored(claimed.id());
    assertPendingUnclaimed(reclaimed, 1);
    assertThat(resolve(claimed, new Done(false)).lost()).containsExactly(claimed.id());
    assertThat(stored(claimed.id())).isEqualTo(reclaimed);
    assertThat(claimOne().attempts()).isEqualTo(2);
  }

  @Test
  void a_claim_whose_lease_has_not_expired_is_left_alone() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    List<QueueMessage> asked = new ArrayList<>();

    assertThat(queues.reclaimExpired(100, recording(asked, new Dead("never")))).isZero();

    assertThat(asked).as("the rule is not asked").isEmpty();
    assertThat(stored(claimed.id())).isEqualTo(claimed);
  }

  @Test
  void an_expired_claim_the_rule_declares_dead_becomes_a_dead_letter_with_its_error() {
    enqueue(attempts(3));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100, expired -> new Dead("lease expired, said the rule")))
        .isEqualTo(1);

    QueueMessage dead = stored(claimed.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.attempts()).as("the store does not second-guess the rule").isEqualTo(1);
    assertThat(dead.lastError()).isEqualTo("lease expired, said the rule");
    assertThat(dead.claimToken()).isNull();
    assertThat(dead.ownerNode()).isNull();
    assertThat(dead.finishedAt()).isNotNull();
    assertThat(resolve(claimed, new Done(false)).lost()).containsExactly(claimed.id());
  }

  @Test
  void the_rule_decides_even_for_a_message_on_its_last_attempt() {
    enqueue(attempts(1));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100, REPEND_ALL)).isEqualTo(1);

    assertPendingUnclaimed(stored(claimed.id()), 1);
  }

  @Test
  void expired_claims_are_written_each_as_its_own_decision_says() {
    enqueueMany(4, null);
    List<QueueMessage> claimed = claim(a, 4, SHORT);
    claimed.forEach(m -> DatabaseClock.awaitPast(store, m.leaseUntil()));
    long first = claimed.get(0).id();
    long second = claimed.get(1).id();

    int changed =
        queues.reclaimExpired(
            100,
            expired ->
                expired.id() == first || expired.id() == second
                    ? new Dead("dead " + (expired.id() == first ? "first" : "second"))
                    : new Repend());

    assertThat(changed).isEqualTo(4);
    assertThat(stored(first).lastError()).isEqualTo("dead first");
    assertThat(stored(second).lastError()).isEqualTo("dead second");
    assertThat(all(QUEUE))
        .filteredOn(m -> m.id() != first && m.id() != second)
        .hasSize(2)
        .allSatisfy(m -> assertPendingUnclaimed(m, 1));
  }

  @Test
  void a_rule_that_throws_changes_nothing() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(a, 3, SHORT);
    claimed.forEach(m -> DatabaseClock.awaitPast(store, m.leaseUntil()));
    List<QueueMessage> before = all(QUEUE);
    List<QueueMessage> asked = new ArrayList<>();
    ReclaimRule failing =
        expired -> {
          asked.add(expired);
          if (asked.size() == 2) {
            throw new IllegalStateException("rule failed");
          }
          return new Dead("dead");
        };

    assertThatThrownBy(() -> queues.reclaimExpired(100, failing))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("rule failed");

    assertThat(all(QUEUE)).isEqualTo(before);
    assertThat(queues.reclaimExpired(100, REPEND_ALL)).isEqualTo(3);
  }

  @Test
  void a_reclaim_changes_at_most_its_limit_and_leaves_the_rest_to_the_next_call() {
    enqueueMany(5, null);
    List<QueueMessage> claimed = claim(a, 5, SHORT);
    claimed.forEach(m -> DatabaseClock.awaitPast(store, m.leaseUntil()));

    assertThat(IntStream.range(0, 4).map(call -> queues.reclaimExpired(2, REPEND_ALL)))
        .containsExactly(2, 2, 1, 0);

    assertThat(all(QUEUE)).allSatisfy(m -> assertPendingUnclaimed(m, 1));
  }

  /** A rule that records what it is asked and answers {@code decision} every time. */
  private static ReclaimRule recording(List<QueueMessage> asked, ReclaimRule.Decision decision) {
    return expired -> {
      asked.add(expired);
      return decision;
    };
  }

  @Test
  void retention_deletes_only_done_and_dead_messages_finished_long_enough_ago() {
    QueueMessage done1 = enqueueAndClaim(message(QUEUE));
    resolveApplied(done1, new Done(true));
    QueueMessage done2 = enqueueAndClaim(message(QUEUE));
    resolveApplied(done2, new Done(true));
    long dead = deadLetter(QUEUE, null, "poison");
    long elsewhere = deadLetter(OTHER, null, "poison");
    QueueMessage inflight = enqueueAndClaim(message(QUEUE));
    long pending = enqueue(message(QUEUE));
    DatabaseClock.awaitPast(store, stored(dead).finishedAt());

    assertThat(queues.deleteExpired(QUEUE, LATER, LATER, 100)).isZero();
    assertThat(queues.deleteExpired(QUEUE, Duration.ZERO, LATER, 1))
        .as("capped by the limit")
        .isEqualTo(1);
    assertThat(queues.deleteExpired(QUEUE, Duration.ZERO, LATER, 100)).isEqualTo(1);
    assertThat(all(QUEUE))
        .extracting(QueueMessage::id)
        .containsExactly(dead, inflight.id(), pending);
    assertThat(queues.deleteExpired(QUEUE, LATER, Duration.ZERO, 100)).isEqualTo(1);

    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(inflight.id(), pending);
    assertThat(all(OTHER)).extracting(QueueMessage::id).containsExactly(elsewhere);
  }
}
