package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Retry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.2: claim order (delay, priority, age), FIFO per key, and racing claimers, on every
 * provider.
 */
public abstract class QueueClaimComplianceTest extends QueueKit {
  @Test
  void a_delayed_message_is_not_claimed_before_its_time_and_one_without_delay_is() {
    enqueue(keyed(null, LATER));
    long now = enqueue(keyed(null, Duration.ZERO));

    assertThat(claimedIds(10)).containsExactly(now);
  }

  @Test
  void a_higher_priority_is_claimed_first_then_the_oldest() {
    long low = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    long high = enqueue(message(QUEUE, null, 5, 3, Duration.ZERO, null));
    long middle = enqueue(message(QUEUE, null, 1, 3, Duration.ZERO, null));
    long high2 = enqueue(message(QUEUE, null, 5, 3, Duration.ZERO, null));

    assertThat(claimedIds(2)).containsExactly(high, high2);
    assertThat(claimedIds(1)).containsExactly(middle);
    assertThat(claimedIds(1)).containsExactly(low);
  }

  // ---- keyed and unkeyed messages in one queue: a claim of unkeyed messages alone (a provider's
  // fast path) is only right while no keyed message is pending

  @Test
  void an_older_keyed_message_is_claimed_before_younger_unkeyed_ones() {
    long keyed = enqueue(keyed("k", Duration.ZERO));
    long unkeyed = enqueue(keyed(null, Duration.ZERO));
    long unkeyed2 = enqueue(keyed(null, Duration.ZERO));

    assertThat(claimedIds(1)).containsExactly(keyed);
    assertThat(claimedIds(2)).containsExactly(unkeyed, unkeyed2);
  }

  @Test
  void a_higher_priority_keyed_message_is_claimed_before_older_unkeyed_ones() {
    long unkeyed = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    long keyed = enqueue(message(QUEUE, "k", 5, 3, Duration.ZERO, null));

    assertThat(claimedIds(1)).containsExactly(keyed);
    assertThat(claimedIds(1)).containsExactly(unkeyed);
  }

  @Test
  void unkeyed_messages_are_claimed_while_every_pending_keyed_message_is_blocked() {
    long head = enqueue(keyed("k", Duration.ZERO));
    enqueue(keyed("k", Duration.ZERO));
    long unkeyed = enqueue(keyed(null, Duration.ZERO));
    assertThat(claimedIds(1)).containsExactly(head);

    assertThat(claimedIds(10)).containsExactly(unkeyed);
  }

  @Test
  void a_keyed_message_enqueued_after_unkeyed_claims_is_claimed_in_its_place() {
    long first = enqueue(keyed(null, Duration.ZERO));
    assertThat(claimedIds(1)).containsExactly(first);
    long keyed = enqueue(keyed("k", Duration.ZERO));
    long unkeyed = enqueue(keyed(null, Duration.ZERO));

    assertThat(claimedIds(1)).containsExactly(keyed);
    assertThat(claimedIds(1)).containsExactly(unkeyed);
  }

  // ---- FIFO per key

  @Test
  void a_key_is_blocked_while_its_head_is_in_flight_and_free_once_it_is_done() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long next = enqueue(keyed("k", Duration.ZERO));
    long other = enqueue(keyed("j", Duration.ZERO));
    QueueMessage claimed = claimOne();
    assertThat(claimed.id()).isEqualTo(head);

    assertThat(claimedIds(10)).containsExactly(other);

    resolveApplied(claimed, new Done(false));
    assertThat(claimedIds(10)).containsExactly(next);
  }

  @Test
  void a_key_is_blocked_while_its_head_waits_for_a_later_time_but_other_keys_are_not() {
    enqueue(keyed("k", LATER));
    enqueue(keyed("k", Duration.ZERO));
    long unkeyed = enqueue(keyed(null, Duration.ZERO));
    long other = enqueue(keyed("j", Duration.ZERO));

    assertThat(claimedIds(10)).containsExactlyInAnyOrder(unkeyed, other);
  }

  @Test
  void a_failed_head_keeps_blocking_its_key_and_the_order_survives_the_retry() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long next = enqueue(keyed("k", Duration.ZERO));
    resolveApplied(claimOne(), new Retry(SHORT, "try again"));

    assertThat(claim(10)).as("the second waits for the head's retry").isEmpty();
    DatabaseClock.awaitPast(store, stored(head).availableAt());

    QueueMessage retried = claimOne();
    assertThat(retried.id()).isEqualTo(head);
    assertThat(retried.attempts()).isEqualTo(2);
    assertThat(claim(10)).isEmpty();
    resolveApplied(retried, new Done(false));
    assertThat(claimedIds(10)).containsExactly(next);
  }

  @Test
  void one_claim_never_takes_two_messages_of_one_key() {
    List<Long> k = enqueueMany(3, "k");
    List<Long> j = enqueueMany(2, "j");
    List<Long> unkeyed = enqueueMany(2, null);

    assertThat(claimedIds(10))
        .containsExactlyInAnyOrder(k.get(0), j.get(0), unkeyed.get(0), unkeyed.get(1));
  }

  /**
   * A deep queue must not hide its claimable rows: a claim looks at a bounded window of the queue's
   * front, then at each key's head, so neither a busy key's backlog nor a mass of delayed messages
   * in front keeps the rest waiting (SPEC §6.2, "never stranded").
   */
  @Test
  void a_key_behind_a_deep_backlog_of_a_busy_key_is_claimed_while_the_busy_head_is_in_flight() {
    long busyHead = enqueueMany(1, "busy").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    List<Long> j = enqueueMany(2, "j");
    long l = enqueueMany(1, "l").get(0);
    assertThat(claimOne().id()).isEqualTo(busyHead);

    assertThat(claimedIds(10))
        .as("the heads of j and l, behind %d blocked rows of busy", DEEP)
        .containsExactlyInAnyOrder(j.get(0), l);
    assertThat(claim(10)).as("every key now has its head in flight").isEmpty();
  }

  /**
   * One claim that takes from both steps: the window's claimable rows, then key heads behind the
   * backlog, never a row twice and never more than asked (PostgreSQL runs both steps in one
   * statement).
   */
  @Test
  void
      a_claim_that_takes_from_the_window_and_from_the_key_heads_takes_each_row_once_up_to_its_limit() {
    long busyHead = enqueueMany(1, "busy").get(0);
    long m = enqueueMany(1, "m").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    List<Long> j = enqueueMany(2, "j");
    long l = enqueueMany(1, "l").get(0);
    assertThat(claimOne().id()).isEqualTo(busyHead);

    assertThat(claimedIds(2))
        .as("m from the window, then the first key head behind it")
        .containsExactlyInAnyOrder(m, j.get(0));
    assertThat(claimedIds(10)).containsExactly(l);
  }

  /**
   * A replayed dead letter keeps its id, so it can be older than the message of its key in flight:
   * it is no head while that one runs (one message per key in flight, SPEC §6.2), and it runs next,
   * before the key's younger messages.
   */
  @Test
  void a_replayed_message_waits_while_its_key_has_a_message_in_flight_then_runs_in_its_old_place() {
    long first = enqueue(keyed("k", Duration.ZERO));
    long second = enqueue(keyed("k", Duration.ZERO));
    long third = enqueue(keyed("k", Duration.ZERO));
    QueueMessage head = claimOne();
    assertThat(head.id()).isEqualTo(first);
    resolveApplied(head, new DeadLetter("poison"));
    QueueMessage inFlight = claimOne();
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(first)).isTrue();
    long other = enqueue(keyed("j", Duration.ZERO));

    assertThat(claimedIds(10)).as("k has %d in flight", second).containsExactly(other);

    resolveApplied(inFlight, new Done(false));
    assertThat(claimedIds(10)).as("the replayed message, before %d", third).containsExactly(first);
  }

  /**
   * The same behind more blocked rows than a claim's window, where only the key heads step can
   * reach the replayed message: that step, too, takes no head of a key with a message in flight.
   */
  @Test
  void a_replayed_message_behind_a_deep_backlog_waits_while_its_key_has_a_message_in_flight() {
    long busyHead = enqueueMany(1, "busy").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    long first = enqueue(keyed("k", Duration.ZERO));
    long second = enqueue(keyed("k", Duration.ZERO));
    assertThat(claimOne().id()).isEqualTo(busyHead);
    QueueMessage head = claimOne();
    assertThat(head.id()).isEqualTo(first);
    resolveApplied(head, new DeadLetter("poison"));
    QueueMessage inFlight = claimOne();
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(dead("k", null, null))).isEqualTo(1);
    long other = enqueue(keyed("l", Duration.ZERO));

    assertThat(claimedIds(10))
        .as("behind %d blocked rows of busy, k has %d in flight", DEEP, second)
        .containsExactly(other);

    resolveApplied(inFlight, new Done(false));
    assertThat(claimedIds(10)).as("the replayed message").containsExactly(first);
  }

  @Test
  void an_available_message_behind_a_deep_backlog_of_delayed_ones_is_claimed() {
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      queues.enqueue(Collections.nCopies(QueueStore.MAX_BATCH, keyed(null, LATER)));
    }
    long now = enqueue(keyed(null, Duration.ZERO));
    long keyedNow = enqueue(keyed("k", Duration.ZERO));

    assertThat(claimedIds(10)).containsExactlyInAnyOrder(now, keyedNow);
  }

  // ---- races

  @Test
  void eight_claimers_racing_over_a_backlog_take_each_message_exactly_once() {
    List<Long> ids = enqueueMany(200, null);
    List<String> nodes = IntStream.range(0, 8).mapToObj(i -> "claimer-" + i).toList();
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    nodes.forEach(node -> claimers.add(() -> drain(node)));

    List<List<QueueMessage>> results = Race.run(claimers);

    List<Long> claimed = results.stream().flatMap(List::stream).map(QueueMessage::id).toList();
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(ids);
    for (int i = 0; i < nodes.size(); i++) {
      String node = nodes.get(i);
      assertThat(results.get(i))
          .allSatisfy(m -> assertThat(stored(m.id()).ownerNode()).isEqualTo(node));
    }
    assertThat(all(QUEUE)).allSatisfy(m -> assertThat(m.attempts()).isEqualTo(1));
  }

  private List<QueueMessage> drain(String node) {
    List<QueueMessage> taken = new ArrayList<>();
    for (List<QueueMessage> batch = claim(node, 10, LEASE);
        !batch.isEmpty();
        batch = claim(node, 10, LEASE)) {
      taken.addAll(batch);
    }
    return taken;
  }

  @Test
  void eight_claimers_racing_over_one_key_take_only_its_head_between_them() {
    List<Long> ids = enqueueMany(20, "k");
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String node = "claimer-" + i;
      claimers.add(() -> claim(node, 10, LEASE));
    }

    List<List<QueueMessage>> results = Race.run(claimers);

    assertThat(results.stream().flatMap(List::stream).map(QueueMessage::id))
        .containsExactly(ids.get(0));
    assertThat(all(QUEUE)).filteredOn(m -> m.status() == MessageStatus.INFLIGHT).hasSize(1);
  }
}
