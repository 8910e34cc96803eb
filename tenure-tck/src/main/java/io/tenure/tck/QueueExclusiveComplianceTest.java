package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentUri;
import io.tenure.QueueMessage;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.Resolution;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Outcome;
import io.tenure.spi.Resolution.Release;
import io.tenure.spi.Resolution.Reschedule;
import io.tenure.spi.Resolution.Retry;
import io.tenure.spi.ResolveResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.9: exclusive queues, claimed and resolved under their agent's guard, on every provider.
 */
public abstract class QueueExclusiveComplianceTest extends QueueKit {
  // ---- exclusive queues (SPEC §6.9)

  @Test
  void an_exclusive_claim_with_a_stale_guard_takes_nothing_and_changes_nothing() {
    enqueueMany(3, null);
    AgentGuard first = ownExclusiveQueue(a);
    AgentGuard current = reclaimAgent(first);
    List<QueueMessage> before = all(QUEUE);

    assertThat(claimStrict(first, 10)).as("an older epoch").isEmpty();
    assertThat(claimStrict(new AgentGuard(EXCLUSIVE, b, current.epoch()), 10))
        .as("another node")
        .isEmpty();
    AgentGuard noRow = new AgentGuard(AgentUri.parse("queue://none"), a, current.epoch());
    assertThat(claimStrict(noRow, 10)).as("no row").isEmpty();

    assertThat(all(QUEUE)).isEqualTo(before);
    assertThat(claimStrict(current, 1)).as("the current guard").hasSize(1);
  }

  @Test
  void an_exclusive_claim_by_a_node_that_lost_the_agent_to_another_takes_nothing() {
    enqueue(message(QUEUE));
    AgentGuard old = ownExclusiveQueue(a);
    agents.release(EXCLUSIVE, a);
    AgentGuard successor = ownExclusiveQueue(b);

    assertThat(claimStrict(old, 10)).isEmpty();
    assertThat(claimStrict(successor, 10)).hasSize(1);
  }

  @Test
  void an_exclusive_claim_with_the_current_guard_takes_the_oldest_message_whatever_its_priority() {
    long head = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    enqueue(
        message(
            QUEUE,
            null,
            9,
            3,
            Duration.ZERO,
            null)); // strict order is id order: priority does not overtake
    AgentGuard guard = ownExclusiveQueue(a);

    assertThat(claimStrict(guard, 1)).extracting(QueueMessage::id).containsExactly(head);
  }

  @Test
  void an_exclusive_queue_claims_nothing_while_its_head_is_in_flight_or_waits_for_a_retry() {
    enqueue(keyed("k", Duration.ZERO));
    enqueue(keyed("j", Duration.ZERO));
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage head = claimStrict(guard, 1).get(0);

    assertThat(claimStrict(guard, 10)).as("head in flight").isEmpty();
    assertThat(resolve(head, new Retry(LATER, "later"), guard).allApplied()).isTrue();
    assertThat(claimStrict(guard, 10)).as("head waits for its retry").isEmpty();
  }

  /**
   * A replayed dead letter keeps its id, so it can be older than the message in flight: the queue
   * still runs one message at a time, and the replayed one runs next, before the younger ones.
   */
  @Test
  void an_exclusive_queue_claims_nothing_while_a_message_is_in_flight_even_an_older_replayed_one() {
    long first = enqueue(message(QUEUE));
    long second = enqueue(message(QUEUE));
    long third = enqueue(message(QUEUE));
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage head = claimStrict(guard, 1).get(0);
    assertThat(head.id()).isEqualTo(first);
    assertThat(resolve(head, new DeadLetter("poison"), guard).allApplied()).isTrue();
    QueueMessage inFlight = claimStrict(guard, 1).get(0);
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(first)).isTrue();

    assertThat(claimStrict(guard, 10)).as("%d in flight", second).isEmpty();

    assertThat(resolve(inFlight, new Done(false), guard).allApplied()).isTrue();
    assertThat(claimStrict(guard, 10)).extracting(QueueMessage::id).containsExactly(first, third);
  }

  /**
   * SPEC §6.9: a finish refused by a stale guard puts the message back for the successor with its
   * attempt given back. The handler succeeded (or gave up on it) on an attempt the refusal undoes:
   * charged, a message at its last attempt would be dead at its successor's first lease lapse.
   */
  @Test
  void
      a_finish_with_a_stale_guard_applies_nothing_and_puts_the_message_back_with_its_attempt_given_back() {
    AgentGuard guard = ownExclusiveQueue(a);
    List<Outcome> finishes = List.of(new Done(false), new Done(true), new DeadLetter("poison"));
    for (Outcome finish : finishes) {
      long id = enqueue(attempts(1)); // one attempt: the claim spends the last one
      QueueMessage claimed = claimStrict(guard, 1).get(0);
      AgentGuard stale = guard;
      guard = reclaimAgent(guard);

      ResolveResult result = resolve(claimed, finish, stale);

      assertThat(result).as("%s", finish).isEqualTo(new ResolveResult(List.of(), List.of(), true));
      QueueMessage back = stored(id);
      assertPendingUnclaimed(back, 0);
      assertThat(back.lastError()).as("%s", finish).isNull();
      assertThat(back.availableAt()).as("%s", finish).isEqualTo(claimed.availableAt());
      QueueMessage successor = claimStrict(guard, 1).get(0);
      assertThat(successor.id()).as("the new owner takes it").isEqualTo(id);
      assertThat(successor.attempts())
          .as("%s: its one attempt is the successor's", finish)
          .isEqualTo(1);
      assertThat(resolve(successor, new Done(false), guard).allApplied()).isTrue();
    }
  }

  /**
   * SPEC §1.5, §6.9: a retry (a failure with attempts left) is a re-pend, never fenced: it lands
   * under a stale guard with its error and its backoff, so the successor neither retries at once
   * nor loses the error. The guard is reported refused, the re-pend as applied.
   */
  @Test
  void a_retry_under_a_stale_guard_lands_with_its_error_and_backoff() {
    AgentGuard guard = ownExclusiveQueue(a);
    long id = enqueue(attempts(3));
    QueueMessage claimed = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    guard = reclaimAgent(guard);
    Instant before = store.now();

    ResolveResult result = resolve(claimed, new Retry(LATER, "boom"), stale);

    assertThat(result).isEqualTo(new ResolveResult(List.of(id), List.of(), true));
    QueueMessage retry = stored(id);
    assertPendingUnclaimed(retry, 1);
    assertThat(retry.lastError()).isEqualTo("boom");
    assertFromNow(retry.availableAt(), LATER, before);
    assertThat(claimStrict(guard, 1)).as("the successor waits for the retry").isEmpty();
  }

  @Test
  void a_stale_guard_with_a_lost_claim_in_the_batch_still_puts_the_held_message_back() {
    enqueueMany(1, null);
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage held = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    reclaimAgent(guard);
    MessageClaim madeUp = new MessageClaim(held.id() + 1_000, "no-such-claim");

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(held.claim(), new Done(false)),
                new Resolution(madeUp, new Done(false))),
            stale);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(madeUp.id()), true));
    assertPendingUnclaimed(stored(held.id()), 0);
  }

  @Test
  void a_non_terminal_resolve_with_a_stale_guard_is_applied() {
    enqueueMany(2, null);
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage first = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    guard = reclaimAgent(guard);

    ResolveResult release = resolve(first, new Release(), stale);
    QueueMessage again = claimStrict(guard, 1).get(0);
    ResolveResult snooze = resolve(again, new Reschedule(LATER), stale);

    assertThat(release).isEqualTo(new ResolveResult(List.of(first.id()), List.of(), false));
    assertThat(snooze).isEqualTo(new ResolveResult(List.of(again.id()), List.of(), false));
    assertThat(stored(again.id()).availableAt()).isAfter(store.now());
  }
}
