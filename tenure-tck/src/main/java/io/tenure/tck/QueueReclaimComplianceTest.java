package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.Resolution.Done;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.5 and §6.8: expired claims are reclaimed (or dead on their last attempt) and finished
 * messages are deleted after their retention, on every provider.
 */
public abstract class QueueReclaimComplianceTest extends QueueKit {
  // ---- reclaim

  @Test
  void an_expired_claim_is_reclaimed_and_its_late_owner_can_no_longer_resolve_it() {
    enqueue(attempts(3));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100)).isEqualTo(1);

    QueueMessage reclaimed = stored(claimed.id());
    assertPendingUnclaimed(reclaimed, 1);
    assertThat(resolve(claimed, new Done(false)).lost()).containsExactly(claimed.id());
    assertThat(stored(claimed.id())).isEqualTo(reclaimed);
    assertThat(claimOne().attempts()).isEqualTo(2);
  }

  @Test
  void a_claim_whose_lease_has_not_expired_is_left_alone() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));

    assertThat(queues.reclaimExpired(100)).isZero();

    assertThat(stored(claimed.id())).isEqualTo(claimed);
  }

  @Test
  void an_expired_claim_at_max_attempts_becomes_a_dead_letter() {
    enqueue(attempts(1));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100)).isEqualTo(1);

    QueueMessage dead = stored(claimed.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.claimToken()).isNull();
    assertThat(dead.finishedAt()).isNotNull();
  }

  @Test
  void a_reclaim_changes_at_most_its_limit_and_leaves_the_rest_to_the_next_call() {
    enqueueMany(5, null);
    List<QueueMessage> claimed = claim(a, 5, SHORT);
    claimed.forEach(m -> DatabaseClock.awaitPast(store, m.leaseUntil()));

    assertThat(IntStream.range(0, 4).map(call -> queues.reclaimExpired(2)))
        .containsExactly(2, 2, 1, 0);

    assertThat(all(QUEUE)).allSatisfy(m -> assertPendingUnclaimed(m, 1));
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
