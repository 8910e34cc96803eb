package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.Resolution;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Release;
import io.tenure.spi.Resolution.Reschedule;
import io.tenure.spi.Resolution.Retry;
import io.tenure.spi.ResolveResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.4: resolves land only under the claim token that still holds; a batch with a lost claim
 * changes nothing; leases are extended only for a held claim, on every provider.
 */
public abstract class QueueResolveComplianceTest extends QueueKit {
  // ---- resolves

  @Test
  void a_retry_is_pending_later_with_its_error_and_attempts_kept() {
    QueueMessage claimed = enqueueAndClaim(attempts(3));
    Instant before = store.now();

    resolveApplied(claimed, new Retry(Duration.ofMinutes(10), "boom"));

    QueueMessage retry = stored(claimed.id());
    assertPendingUnclaimed(retry, 1);
    assertFromNow(retry.availableAt(), Duration.ofMinutes(10), before);
    assertThat(retry.lastError()).isEqualTo("boom");
    assertThat(retry.finishedAt()).isNull();
    assertThat(claim(10)).isEmpty();
  }

  /**
   * The consumer decides retry or dead (SPEC §6.3); the store applies what it is told: a retry on
   * the last attempt re-pends, and only a dead letter makes the message dead.
   */
  @Test
  void a_retry_on_the_last_attempt_is_applied_as_told_and_a_dead_letter_is_dead() {
    enqueue(attempts(2));
    resolveApplied(claimOne(), new Retry(Duration.ZERO, "first"));
    QueueMessage last = claimOne();
    assertThat(last.attempts()).isEqualTo(2);

    resolveApplied(last, new Retry(Duration.ZERO, "second"));

    QueueMessage again = stored(last.id());
    assertPendingUnclaimed(again, 2);
    assertThat(again.lastError()).isEqualTo("second");
    assertThat(again.finishedAt()).isNull();
    QueueMessage past = claimOne();
    assertThat(past.attempts()).isEqualTo(3);
    Instant before = store.now();

    resolveApplied(past, new DeadLetter("third"));

    QueueMessage dead = stored(last.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.lastError()).isEqualTo("third");
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.ownerNode()).isNull();
    assertThat(dead.claimToken()).isNull();
    assertFromNow(dead.finishedAt(), Duration.ZERO, before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_dead_letter_is_dead_at_once_whatever_attempts_are_left() {
    QueueMessage claimed = enqueueAndClaim(attempts(10));
    Instant before = store.now();

    resolveApplied(claimed, new DeadLetter("poison"));

    QueueMessage dead = stored(claimed.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.lastError()).isEqualTo("poison");
    assertThat(dead.attempts()).isEqualTo(1);
    assertFromNow(dead.finishedAt(), Duration.ZERO, before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_release_gives_the_attempt_back_and_keeps_the_available_time() {
    long id = enqueue(attempts(3));
    Instant availableAt = stored(id).availableAt();
    DatabaseClock.awaitPast(store, availableAt);

    resolveApplied(claimOne(), new Release());

    QueueMessage released = stored(id);
    assertPendingUnclaimed(released, 0);
    assertThat(released.availableAt()).isEqualTo(availableAt);
    assertThat(claimOne().attempts()).isEqualTo(1);
  }

  @Test
  void a_reschedule_gives_the_attempt_back_and_snoozes_from_now() {
    QueueMessage claimed = enqueueAndClaim(attempts(3));
    Instant before = store.now();

    resolveApplied(claimed, new Reschedule(Duration.ofMinutes(10)));

    QueueMessage snoozed = stored(claimed.id());
    assertPendingUnclaimed(snoozed, 0);
    assertFromNow(snoozed.availableAt(), Duration.ofMinutes(10), before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_resolve_whose_claim_was_lost_changes_nothing_and_reports_the_id() {
    QueueMessage first = enqueueAndClaim(message(QUEUE));
    resolveApplied(first, new Release());
    QueueMessage current = claimOne();
    long missing = current.id() + 1_000_000;

    MessageClaim madeUp = new MessageClaim(current.id(), "made-up");
    for (MessageClaim lost : List.of(madeUp, first.claim(), new MessageClaim(missing, "x"))) {
      ResolveResult result = resolve(lost, new Done(false));

      assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(lost.id()), false));
      assertThat(result.allApplied()).isFalse();
    }
    assertThat(stored(current.id())).isEqualTo(current);
    assertThat(queues.find(missing)).isEmpty();
  }

  @Test
  void a_batch_with_one_lost_claim_changes_nothing_and_reports_exactly_that_id() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(false)),
                new Resolution(new MessageClaim(claimed.get(1).id(), "made-up"), new Done(true)),
                new Resolution(claimed.get(2).claim(), new Retry(Duration.ZERO, "boom"))),
            null);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(claimed.get(1).id()), false));
    assertThat(all(QUEUE)).containsExactlyElementsOf(claimed);
  }

  @Test
  void a_batch_of_done_and_released_messages_with_one_lost_claim_changes_nothing() {
    // Done and release are the common outcomes; a store may write them on a shorter path, which
    // must stay all or nothing: here the lost claim is in the middle of the batch.
    enqueueMany(4, null);
    List<QueueMessage> claimed = claim(4);

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(false)),
                new Resolution(claimed.get(1).claim(), new Done(true)),
                new Resolution(new MessageClaim(claimed.get(2).id(), "made-up"), new Done(false)),
                new Resolution(claimed.get(3).claim(), new Release())),
            null);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(claimed.get(2).id()), false));
    assertThat(all(QUEUE)).containsExactlyElementsOf(claimed);
  }

  @Test
  void a_batch_whose_claims_all_hold_is_applied_entirely() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);
    List<Long> ids = claimed.stream().map(QueueMessage::id).toList();

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(true)),
                new Resolution(claimed.get(1).claim(), new Release()),
                new Resolution(claimed.get(2).claim(), new DeadLetter("poison"))),
            null);

    assertThat(result.allApplied()).isTrue();
    assertThat(result.applied()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(result.lost()).isEmpty();
    assertThat(all(QUEUE))
        .extracting(QueueMessage::status)
        .containsExactly(MessageStatus.DONE, MessageStatus.PENDING, MessageStatus.DEAD);
  }

  @Test
  void an_empty_batch_or_one_naming_a_message_twice_is_refused_and_changes_nothing() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    List<Resolution> twice =
        List.of(
            new Resolution(claimed.claim(), new Done(false)),
            new Resolution(claimed.claim(), new Release()));

    assertThatThrownBy(() -> queues.resolve(List.of(), null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queues.resolve(twice, null))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(stored(claimed.id())).isEqualTo(claimed);
  }

  @Test
  void extending_a_held_claim_moves_its_lease_forward_and_a_lost_claim_is_not_extended() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    Instant before = store.now();

    assertThat(queues.extend(claimed.claim(), Duration.ofMinutes(30))).isTrue();

    QueueMessage extended = stored(claimed.id());
    assertFromNow(extended.leaseUntil(), Duration.ofMinutes(30), before);
    assertThat(extended.claimToken()).isEqualTo(claimed.claimToken());
    assertThat(queues.extend(new MessageClaim(claimed.id(), "made-up"), Duration.ofHours(2)))
        .isFalse();
    assertThat(stored(claimed.id())).isEqualTo(extended);
  }
}
