package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DedupeWindow;
import io.tenure.DeleteOutcome;
import io.tenure.MessageProgress;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.RetryOutcome;
import io.tenure.RunNowOutcome;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageAdminStore;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12.7, rules Q33 to Q35 of {@link MessageAdminStore} and the group filter of Q25: an
 * operator deletes, runs now or retries one message, each conditional on its status in the store,
 * so none of them takes a message from under a claim.
 */
public abstract class QueueMessageAdminComplianceTest extends QueueKit {
  private static final int RACE_ROUNDS = 10;
  private static final int RACE_MESSAGES = 20;

  private MessageAdminStore admin() {
    return queues.admin();
  }

  private static NewMessage grouped(String group) {
    return message(QUEUE).withGroup(group);
  }

  private static NewMessage uniqueWhileActive(String dedupeKey) {
    return deduped(QUEUE, dedupeKey).withDedupeWindow(DedupeWindow.whileActive());
  }

  private long doneKept() {
    QueueMessage done = enqueueAndClaim(message(QUEUE));
    resolveApplied(done, new Done(true));
    return done.id();
  }

  private long cancelledPending() {
    long id = enqueue(message(QUEUE));
    assertThat(queues.cancel(id).cancelled()).isTrue();
    return id;
  }

  // ---- Q33 delete

  @Test
  void a_message_that_is_not_in_flight_is_deleted_whatever_its_status() {
    long done = doneKept();
    long dead = deadLetter(QUEUE, null, "poison");
    long pending = enqueue(message(QUEUE));
    long cancelled = cancelledPending();
    long kept = enqueue(message(QUEUE));
    QueueMessage keptBefore = stored(kept);

    for (long id : List.of(pending, done, dead, cancelled)) {
      assertThat(admin().delete(id)).as("message %d", id).isEqualTo(DeleteOutcome.DELETED);
      assertThat(queues.find(id)).as("message %d", id).isEmpty();
    }

    assertThat(all(QUEUE)).containsExactly(keptBefore);
    assertThat(admin().delete(pending)).as("deleted already").isEqualTo(DeleteOutcome.NOT_FOUND);
  }

  @Test
  void a_deleted_message_frees_its_dedupe_key_and_unblocks_its_key() {
    long deduplicated = enqueue(deduped(QUEUE, "order-7"));
    assertThat(queues.enqueue(List.of(deduped(QUEUE, "order-7"))).get(0))
        .isEqualTo(new EnqueueResult(deduplicated, false));
    long delayedHead = enqueue(keyed("k", LATER));
    long next = enqueue(keyed("k", Duration.ZERO));
    assertThat(claimedIds(10)).as("k waits for its delayed head").containsExactly(deduplicated);

    assertThat(admin().delete(delayedHead)).isEqualTo(DeleteOutcome.DELETED);
    assertThat(claimedIds(10)).containsExactly(next);

    assertThat(queues.cancel(deduplicated)).isEqualTo(io.tenure.CancelOutcome.CANCELLED_RUNNING);
    assertThat(admin().delete(deduplicated)).isEqualTo(DeleteOutcome.DELETED);
    EnqueueResult again = queues.enqueue(List.of(deduped(QUEUE, "order-7"))).get(0);
    assertThat(again.inserted()).as("the key is free once its message is deleted").isTrue();
    assertThat(again.id()).isNotEqualTo(deduplicated);
  }

  @Test
  void a_message_in_flight_is_not_deleted_and_its_claim_still_holds() {
    QueueMessage running = enqueueAndClaim(message(QUEUE));
    QueueMessage before = stored(running.id());

    assertThat(admin().delete(running.id())).isEqualTo(DeleteOutcome.IN_FLIGHT);

    assertThat(stored(running.id())).isEqualTo(before);
    assertThat(queues.lostClaims(List.of(running.claim()))).isEmpty();
    resolveApplied(running, new Done(false));
  }

  @Test
  void deleting_an_unknown_message_changes_nothing() {
    deadLetter(QUEUE, null, "poison");
    enqueue(message(QUEUE));
    List<QueueMessage> before = all(QUEUE);

    assertThat(admin().delete(999_999_999L)).isEqualTo(DeleteOutcome.NOT_FOUND);

    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
  }

  /**
   * A claim of the whole queue races deletes of every message, newest first, so the two meet part
   * way: each message must end up either deleted (and not claimed) or claimed and in flight (and
   * its delete refused), and every claim returned must still hold. A delete that read the status
   * before its write, or wrote without the status, deletes messages a claim has just taken.
   */
  @Test
  void a_delete_racing_a_claim_leaves_each_message_deleted_or_in_flight_never_both() {
    for (int round = 0; round < RACE_ROUNDS; round++) {
      List<Long> ids = enqueueMany(RACE_MESSAGES, null);
      List<Long> newestFirst = ids.reversed();
      List<Callable<Object>> racers = new ArrayList<>();
      racers.add(() -> claim(RACE_MESSAGES));
      racers.add(() -> newestFirst.stream().map(id -> admin().delete(id)).toList());

      List<Object> results = Race.run(racers);

      @SuppressWarnings("unchecked")
      List<QueueMessage> claimed = (List<QueueMessage>) results.get(0);
      @SuppressWarnings("unchecked")
      List<DeleteOutcome> deletes = (List<DeleteOutcome>) results.get(1);
      Set<Long> claimedIds = claimed.stream().map(QueueMessage::id).collect(Collectors.toSet());
      for (int i = 0; i < newestFirst.size(); i++) {
        long id = newestFirst.get(i);
        DeleteOutcome outcome = deletes.get(i);
        if (claimedIds.contains(id)) {
          assertThat(outcome)
              .as("round %d: message %d was claimed", round, id)
              .isEqualTo(DeleteOutcome.IN_FLIGHT);
          assertThat(queues.find(id))
              .as("round %d: claimed message %d", round, id)
              .hasValueSatisfying(m -> assertThat(m.status()).isEqualTo(MessageStatus.INFLIGHT));
        } else {
          assertThat(outcome)
              .as("round %d: message %d was not claimed", round, id)
              .isEqualTo(DeleteOutcome.DELETED);
          assertThat(queues.find(id)).as("round %d: message %d", round, id).isEmpty();
        }
      }
      assertThat(queues.lostClaims(claimed.stream().map(QueueMessage::claim).toList()))
          .as("round %d: every claim returned holds", round)
          .isEmpty();
      claimed.forEach(m -> resolveApplied(m, new Done(false)));
    }
  }

  // ---- Q34 run now

  @Test
  void a_delayed_message_run_now_is_claimed_at_once_with_nothing_else_changed() {
    long delayed = enqueue(message(QUEUE, "k", 7, 3, LATER, null).withGroup("tenant-1"));
    assertThat(claim(10)).as("delayed by an hour").isEmpty();
    QueueMessage before = stored(delayed);
    Instant readBefore = store.now();

    assertThat(admin().runNow(delayed)).isEqualTo(RunNowOutcome.AVAILABLE_NOW);

    QueueMessage after = stored(delayed);
    assertFromNow(after.availableAt(), Duration.ZERO, readBefore);
    assertThat(after).usingRecursiveComparison().ignoringFields("availableAt").isEqualTo(before);
    assertThat(claimedIds(10)).containsExactly(delayed);
  }

  @Test
  void a_message_waiting_for_a_retry_run_now_keeps_its_attempts_and_its_error() {
    QueueMessage failed = enqueueAndClaim(message(QUEUE));
    resolveApplied(failed, new Retry(LATER, "timeout talking to billing"));
    assertThat(claim(10)).as("its backoff runs an hour").isEmpty();

    assertThat(admin().runNow(failed.id())).isEqualTo(RunNowOutcome.AVAILABLE_NOW);

    QueueMessage waiting = stored(failed.id());
    assertPendingUnclaimed(waiting, 1);
    assertThat(waiting.lastError()).isEqualTo("timeout talking to billing");
    QueueMessage again = claimOne();
    assertThat(again.id()).isEqualTo(failed.id());
    assertThat(again.attempts()).as("the next attempt").isEqualTo(2);
  }

  @Test
  void running_now_a_message_that_is_not_waiting_changes_nothing() {
    QueueMessage running = enqueueAndClaim(message(OTHER));
    long done = doneKept();
    long dead = deadLetter(QUEUE, null, "poison");
    long cancelled = cancelledPending();
    long available = enqueue(message(QUEUE));
    List<QueueMessage> before = all(QUEUE);
    QueueMessage runningBefore = stored(running.id());

    assertThat(admin().runNow(available)).isEqualTo(RunNowOutcome.ALREADY_AVAILABLE);
    for (long id : List.of(running.id(), done, dead, cancelled)) {
      assertThat(admin().runNow(id)).as("message %d", id).isEqualTo(RunNowOutcome.NOT_PENDING);
    }
    assertThat(admin().runNow(999_999_999L)).isEqualTo(RunNowOutcome.NOT_FOUND);

    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
    assertThat(stored(running.id())).isEqualTo(runningBefore);
  }

  // ---- Q35 retry

  @Test
  void a_dead_or_cancelled_message_retried_is_pending_now_with_no_attempts_and_its_error() {
    QueueMessage failing = enqueueAndClaim(message(QUEUE));
    assertThat(queues.checkpoint(failing.claim(), new byte[] {4, 2})).isTrue();
    assertThat(queues.progress(failing.claim(), new MessageProgress(0.5, "half"))).isTrue();
    resolveApplied(failing, new DeadLetter("poison"));
    QueueMessage running = enqueueAndClaim(message(QUEUE));
    assertThat(queues.cancel(running.id())).isEqualTo(io.tenure.CancelOutcome.CANCELLED_RUNNING);
    Instant before = store.now();

    assertThat(admin().retry(failing.id())).isEqualTo(RetryOutcome.RETRIED);
    assertThat(admin().retry(running.id())).isEqualTo(RetryOutcome.RETRIED);

    QueueMessage dead = stored(failing.id());
    assertPendingUnclaimed(dead, 0);
    assertThat(dead.lastError()).isEqualTo("poison");
    assertThat(dead.finishedAt()).isNull();
    assertFromNow(dead.availableAt(), Duration.ZERO, before);
    assertThat(dead.checkpoint()).containsExactly(4, 2);
    assertThat(dead.progress()).isEqualTo(new MessageProgress(0.5, "half"));
    QueueMessage cancelled = stored(running.id());
    assertPendingUnclaimed(cancelled, 0);
    assertThat(cancelled.finishedAt()).isNull();
    assertThat(claim(10))
        .extracting(QueueMessage::id, QueueMessage::attempts)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(failing.id(), 1),
            org.assertj.core.groups.Tuple.tuple(running.id(), 1));
  }

  @Test
  void retrying_a_message_that_is_not_dead_or_cancelled_changes_nothing() {
    QueueMessage running = enqueueAndClaim(message(OTHER));
    long done = doneKept();
    long pending = enqueue(message(QUEUE));
    List<QueueMessage> before = all(QUEUE);
    QueueMessage runningBefore = stored(running.id());

    for (long id : List.of(pending, running.id(), done)) {
      assertThat(admin().retry(id))
          .as("message %d", id)
          .isEqualTo(RetryOutcome.NOT_DEAD_OR_CANCELLED);
    }
    assertThat(admin().retry(999_999_999L)).isEqualTo(RetryOutcome.NOT_FOUND);

    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
    assertThat(stored(running.id())).isEqualTo(runningBefore);
  }

  @Test
  void a_retried_message_waits_for_its_keys_message_in_flight_then_runs_first() {
    for (boolean cancel : new boolean[] {false, true}) {
      String key = cancel ? "cancelled-head" : "dead-head";
      long first = enqueue(keyed(key, Duration.ZERO));
      long second = enqueue(keyed(key, Duration.ZERO));
      long third = enqueue(keyed(key, Duration.ZERO));
      QueueMessage head = claimOne();
      assertThat(head.id()).isEqualTo(first);
      if (cancel) {
        assertThat(queues.cancel(first)).isEqualTo(io.tenure.CancelOutcome.CANCELLED_RUNNING);
      } else {
        resolveApplied(head, new DeadLetter("poison"));
      }
      QueueMessage inFlight = claimOne();
      assertThat(inFlight.id()).isEqualTo(second);

      assertThat(admin().retry(first)).isEqualTo(RetryOutcome.RETRIED);
      long other = enqueue(keyed("other-" + key, Duration.ZERO));

      List<QueueMessage> whileBlocked = claim(10);
      assertThat(whileBlocked)
          .extracting(QueueMessage::id)
          .as("%s has %d in flight", key, second)
          .containsExactly(other);
      resolveApplied(inFlight, new Done(false));
      resolveApplied(whileBlocked.get(0), new Done(false));
      QueueMessage retried = claimOne();
      assertThat(retried.id()).as("the retried message, before %d", third).isEqualTo(first);
      resolveApplied(retried, new Done(false));
      assertThat(claimedIds(10)).containsExactly(third);
    }
  }

  @Test
  void a_retried_message_holds_its_dedupe_key_again_and_one_whose_key_was_taken_holds_none() {
    long holder = enqueue(deduped(QUEUE, "held"));
    resolveApplied(claimOne(), new DeadLetter("poison"));
    assertThat(admin().retry(holder)).isEqualTo(RetryOutcome.RETRIED);
    assertThat(queues.enqueue(List.of(deduped(QUEUE, "held"))).get(0))
        .as("pending again, it holds its key")
        .isEqualTo(new EnqueueResult(holder, false));
    resolveApplied(claimOne(), new Done(false));

    long old = enqueue(uniqueWhileActive("passed"));
    resolveApplied(claimOne(), new DeadLetter("poison"));
    long newer = queues.enqueue(List.of(uniqueWhileActive("passed"))).get(0).id();
    assertThat(newer).as("the window passed when it died").isNotEqualTo(old);
    assertThat(stored(old).dedupeKey()).isNull();

    assertThat(admin().retry(old)).isEqualTo(RetryOutcome.RETRIED);

    assertThat(stored(old).dedupeKey()).as("the retried message took no key back").isNull();
    assertThat(stored(newer).dedupeKey()).isEqualTo("passed");
    assertThat(queues.enqueue(List.of(uniqueWhileActive("passed"))).get(0))
        .isEqualTo(new EnqueueResult(newer, false));
    assertThat(all(QUEUE)).filteredOn(m -> "passed".equals(m.dedupeKey())).hasSize(1);
  }

  /**
   * A dead message whose window has passed still holds its key until an enqueue takes it. A retry
   * and such an enqueue, racing, leave one holder: the retried message (the enqueue returns its id)
   * or the new one (the retried message holds none), never two rows with the key and never an error
   * from the unique index.
   */
  @Test
  void a_retry_racing_an_enqueue_for_its_passed_key_leaves_one_holder_of_the_key() {
    for (int round = 0; round < RACE_ROUNDS; round++) {
      String dedupeKey = "race-" + round;
      long old = enqueue(uniqueWhileActive(dedupeKey));
      resolveApplied(claimOne(), new DeadLetter("poison"));
      List<Callable<Object>> racers = new ArrayList<>();
      racers.add(() -> admin().retry(old));
      racers.add(() -> queues.enqueue(List.of(uniqueWhileActive(dedupeKey))).get(0));

      List<Object> results = Race.run(racers);

      assertThat(results.get(0)).as("round %d", round).isEqualTo(RetryOutcome.RETRIED);
      EnqueueResult enqueued = (EnqueueResult) results.get(1);
      List<QueueMessage> holders =
          all(QUEUE).stream().filter(m -> dedupeKey.equals(m.dedupeKey())).toList();
      assertThat(holders).as("round %d: holders of the key", round).hasSize(1);
      assertThat(holders.get(0).id()).as("round %d", round).isEqualTo(enqueued.id());
      assertThat(enqueued.inserted()).as("round %d", round).isEqualTo(enqueued.id() != old);
      assertPendingUnclaimed(stored(old), 0);
      claim(10).forEach(m -> resolveApplied(m, new Done(false)));
    }
  }

  // ---- Q25 the group filter

  @Test
  void messages_are_filtered_by_group_in_lists_replays_and_purges() {
    long a1 = enqueue(grouped("tenant-a"));
    long b1 = enqueue(grouped("tenant-b"));
    long none = enqueue(message(QUEUE));
    long a2 = enqueue(grouped("tenant-a"));
    MessageQuery all = new MessageQuery(QUEUE, null, null, null, null, 0, 100);

    assertThat(ids(all.withGroup("tenant-a"))).containsExactly(a1, a2);
    assertThat(ids(all.withGroup("tenant-b"))).containsExactly(b1);
    assertThat(ids(all.withGroup("tenant-c"))).isEmpty();
    assertThat(ids(all)).containsExactly(a1, b1, none, a2);
    assertThat(ids(new MessageQuery(QUEUE, null, null, null, null, a1, 100).withGroup("tenant-a")))
        .as("after a1")
        .containsExactly(a2);

    claim(10).forEach(m -> resolveApplied(m, new DeadLetter("poison")));
    MessageQuery dead = dead(null, null, null);
    assertThat(queues.replay(dead.withGroup("tenant-a"))).isEqualTo(2);
    assertThat(queues.purge(dead.withGroup("tenant-b"))).isEqualTo(1);

    assertThat(ids(dead)).containsExactly(none);
    assertThat(ids(all.withGroup("tenant-a"))).containsExactly(a1, a2);
    assertThat(queues.find(b1)).isEmpty();
  }
}
