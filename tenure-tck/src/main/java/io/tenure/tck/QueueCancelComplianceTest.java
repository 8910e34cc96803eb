package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.CancelOutcome;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.ResolveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12.3, rules Q32a to Q32d of {@link io.tenure.spi.QueueStore}: a cancel takes a pending or
 * running message out of the queue for good, and a running one's owner can no longer finish it.
 */
public abstract class QueueCancelComplianceTest extends QueueKit {

  @Test
  void a_pending_message_cancelled_is_never_claimed() {
    long cancelled = enqueue(message(QUEUE));
    long other = enqueue(message(QUEUE));

    assertThat(queues.cancel(cancelled)).isEqualTo(CancelOutcome.CANCELLED);

    QueueMessage stored = stored(cancelled);
    assertThat(stored.status()).isEqualTo(MessageStatus.CANCELLED);
    assertThat(stored.finishedAt()).isNotNull();
    assertThat(stored.claimToken()).isNull();
    assertThat(claimedIds(10)).containsExactly(other);
  }

  @Test
  void a_running_message_cancelled_loses_its_claim_and_its_done_changes_nothing() {
    QueueMessage running = enqueueAndClaim(message(QUEUE));

    assertThat(queues.cancel(running.id())).isEqualTo(CancelOutcome.CANCELLED_RUNNING);

    assertThat(queues.lostClaims(List.of(running.claim()))).containsExactly(running.id());
    assertThat(queues.extend(running.claim(), LEASE)).as("no extension").isFalse();
    ResolveResult done = resolve(running, new Done(true));
    assertThat(done.applied()).isEmpty();
    assertThat(done.lost()).containsExactly(running.id());
    QueueMessage stored = stored(running.id());
    assertThat(stored.status()).isEqualTo(MessageStatus.CANCELLED);
    assertThat(stored.ownerNode()).isNull();
    assertThat(stored.leaseUntil()).isNull();
    assertThat(queues.reclaimExpired(100, REPEND_ALL)).as("nothing to reclaim").isZero();
  }

  @Test
  void cancelling_a_finished_or_unknown_message_changes_nothing() {
    QueueMessage done = enqueueAndClaim(message(QUEUE));
    resolveApplied(done, new Done(true));
    long dead = deadLetter(QUEUE, null, "poison");
    long cancelled = enqueue(message(QUEUE));
    queues.cancel(cancelled);
    List<QueueMessage> before = all(QUEUE);

    assertThat(queues.cancel(done.id())).isEqualTo(CancelOutcome.FINISHED);
    assertThat(queues.cancel(dead)).isEqualTo(CancelOutcome.FINISHED);
    assertThat(queues.cancel(cancelled)).isEqualTo(CancelOutcome.FINISHED);
    assertThat(queues.cancel(999_999_999L)).isEqualTo(CancelOutcome.NOT_FOUND);

    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
  }

  @Test
  void a_cancelled_head_unblocks_its_key() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long next = enqueue(keyed("k", Duration.ZERO));
    QueueMessage running = claimOne();
    assertThat(running.id()).isEqualTo(head);
    assertThat(claim(10)).as("the key waits for its head").isEmpty();

    queues.cancel(head);

    assertThat(claimedIds(10)).containsExactly(next);
  }

  @Test
  void a_cancel_racing_the_owners_done_leaves_exactly_one_applied() {
    for (int round = 0; round < 20; round++) {
      QueueMessage running = enqueueAndClaim(message(QUEUE));
      List<Callable<Object>> racers = new ArrayList<>();
      racers.add(() -> queues.cancel(running.id()));
      racers.add(() -> resolve(running, new Done(true)));

      List<Object> results = Race.run(racers);

      CancelOutcome cancel = (CancelOutcome) results.get(0);
      ResolveResult done = (ResolveResult) results.get(1);
      QueueMessage stored = stored(running.id());
      if (cancel == CancelOutcome.CANCELLED_RUNNING) {
        assertThat(done.lost()).as("round %d: the cancel won", round).containsExactly(running.id());
        assertThat(stored.status()).isEqualTo(MessageStatus.CANCELLED);
      } else {
        assertThat(cancel).as("round %d: the done won", round).isEqualTo(CancelOutcome.FINISHED);
        assertThat(done.applied()).containsExactly(running.id());
        assertThat(stored.status()).isEqualTo(MessageStatus.DONE);
      }
    }
  }

  @Test
  void lost_claims_name_the_cancelled_reclaimed_and_deleted_messages_only() {
    QueueMessage held = enqueueAndClaim(message(QUEUE));
    QueueMessage cancelled = enqueueAndClaim(message(QUEUE));
    long expiring = enqueue(message(QUEUE));
    QueueMessage shortLease = claimOne(SHORT);
    assertThat(shortLease.id()).isEqualTo(expiring);
    QueueMessage deleted = enqueueAndClaim(message(QUEUE));
    queues.cancel(cancelled.id());
    resolveApplied(deleted, new Done(false));
    DatabaseClock.awaitPast(store, shortLease.leaseUntil());
    assertThat(queues.reclaimExpired(10, REPEND_ALL)).isEqualTo(1);
    List<QueueMessage> before = all(QUEUE);

    assertThat(
            queues.lostClaims(
                List.of(
                    held.claim(),
                    cancelled.claim(),
                    shortLease.claim(),
                    deleted.claim(),
                    new MessageClaim(held.id(), "not-the-token"))))
        .as("the real claim of held is not lost; a wrong token on it is")
        .containsExactlyInAnyOrder(cancelled.id(), shortLease.id(), deleted.id(), held.id());
    assertThat(queues.lostClaims(List.of(held.claim()))).isEmpty();
    assertThat(queues.lostClaims(List.of())).isEmpty();
    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
  }

  @Test
  void cancelled_messages_are_counted_and_kept_as_long_as_dead_letters() {
    long cancelled = enqueue(message(QUEUE));
    long pending = enqueue(message(QUEUE));
    queues.cancel(cancelled);

    QueueStats stats =
        queues.stats().stream().filter(s -> s.queue().equals(QUEUE)).findFirst().orElseThrow();
    assertThat(stats.cancelled()).isEqualTo(1);
    assertThat(stats.pending()).isEqualTo(1);

    assertThat(queues.deleteExpired(QUEUE, Duration.ZERO, LATER, 100))
        .as("done messages go at once; cancelled ones stay as long as dead letters")
        .isZero();
    DatabaseClock.awaitPast(store, stored(cancelled).finishedAt());
    assertThat(queues.deleteExpired(QUEUE, LATER, Duration.ZERO, 100)).isEqualTo(1);
    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(pending);
  }

  @Test
  void a_queue_whose_only_messages_are_cancelled_is_listed() {
    long only = enqueue(message(OTHER));
    queues.cancel(only);

    assertThat(queues.stats())
        .filteredOn(s -> s.queue().equals(OTHER))
        .singleElement()
        .satisfies(s -> assertThat(s.cancelled()).isEqualTo(1));
  }
}
