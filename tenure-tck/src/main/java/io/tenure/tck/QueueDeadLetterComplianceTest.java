package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.7: dead letters listed, filtered, replayed and purged, and the queue stats, on every
 * provider.
 */
public abstract class QueueDeadLetterComplianceTest extends QueueKit {
  // ---- dead letters (SPEC §6.7)

  @Test
  void dead_letters_are_listed_per_queue_in_id_order() {
    long first = deadLetter(QUEUE, null, "one");
    deadLetter(OTHER, null, "elsewhere");
    long second = deadLetter(QUEUE, null, "two");
    enqueue(message(QUEUE));
    enqueueAndClaim(message(OTHER));

    assertThat(ids(MessageQuery.dead(QUEUE, 100))).containsExactly(first, second);
    assertThat(ids(new MessageQuery(QUEUE, MessageStatus.DEAD, null, null, null, first, 100)))
        .containsExactly(second);
    assertThat(ids(MessageQuery.dead(QUEUE, 1))).containsExactly(first);
  }

  @Test
  void dead_letters_are_filtered_by_key_error_and_age() {
    long timeout = deadLetter(QUEUE, "k", "timeout after 30s");
    long refused = deadLetter(QUEUE, "j", "connection refused");
    long other = deadLetter(QUEUE, "k", "bad request");
    DatabaseClock.awaitPast(store, stored(other).createdAt());

    assertThat(ids(dead("k", null, null))).containsExactly(timeout, other);
    assertThat(ids(dead(null, "refused", null))).containsExactly(refused);
    assertThat(ids(dead("k", "refused", null))).isEmpty();
    assertThat(ids(dead(null, null, LATER))).as("none an hour old").isEmpty();
    assertThat(ids(dead(null, null, Duration.ZERO))).containsExactly(timeout, refused, other);
  }

  @Test
  void replaying_a_dead_letter_makes_it_pending_now_with_no_attempts_and_claimable() {
    long id = deadLetter(QUEUE, null, "poison");
    Instant before = store.now();

    assertThat(queues.replay(id)).isTrue();

    QueueMessage replayed = stored(id);
    assertPendingUnclaimed(replayed, 0);
    assertThat(replayed.lastError()).isEqualTo("poison");
    assertFromNow(replayed.availableAt(), Duration.ZERO, before);
    assertThat(claimOne().id()).isEqualTo(id);
  }

  @Test
  void replaying_a_message_that_is_not_dead_changes_nothing() {
    long pending = enqueue(message(QUEUE));
    QueueMessage before = stored(pending);
    QueueMessage inflight = enqueueAndClaim(message(OTHER));

    assertThat(queues.replay(pending)).isFalse();
    assertThat(queues.replay(inflight.id())).isFalse();
    assertThat(queues.replay(inflight.id() + 1_000_000)).isFalse();

    assertThat(stored(pending)).isEqualTo(before);
    assertThat(stored(inflight.id())).isEqualTo(inflight);
  }

  @Test
  void replay_and_purge_by_query_touch_only_matching_dead_letters() {
    long k1 = deadLetter(QUEUE, "k", "boom");
    long k2 = deadLetter(QUEUE, "k", "boom");
    long j = deadLetter(QUEUE, "j", "boom");
    long elsewhere = deadLetter(OTHER, "k", "boom");
    long pending = enqueue(keyed("j", LATER));
    // The query's status is ignored: replay and purge touch DEAD rows only, whatever it says.
    MessageQuery keyK = new MessageQuery(QUEUE, MessageStatus.PENDING, "k", null, null, 0, 100);
    MessageQuery keyJ = new MessageQuery(QUEUE, null, "j", null, null, 0, 100);

    assertThat(queues.replay(keyK)).isEqualTo(2);
    assertThat(queues.purge(keyJ)).isEqualTo(1);

    assertThat(List.of(stored(k1).status(), stored(k2).status()))
        .containsOnly(MessageStatus.PENDING);
    assertThat(queues.find(j)).isEmpty();
    assertThat(stored(pending).status()).isEqualTo(MessageStatus.PENDING);
    assertThat(stored(elsewhere).status()).isEqualTo(MessageStatus.DEAD);
    assertThat(queues.replay(keyK)).isZero();
    assertThat(queues.purge(keyJ)).isZero();
  }

  // ---- stats

  @Test
  void stats_count_each_status_per_queue_and_the_age_of_the_oldest_available_message() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);
    resolveApplied(claimed.get(1), new DeadLetter("poison"));
    resolveApplied(claimed.get(2), new Done(true));
    long available = enqueue(message(QUEUE));
    enqueue(keyed(null, LATER));
    enqueue(message(OTHER, null, 0, 3, LATER, null));
    DatabaseClock.awaitPast(store, stored(available).availableAt());

    List<QueueStats> stats = queues.stats();

    assertThat(stats).extracting(QueueStats::queue).containsExactly(OTHER, QUEUE);
    QueueStats billing = stats.get(0);
    assertThat(counts(billing)).containsExactly(1L, 0L, 0L, 0L);
    assertThat(billing.oldestPendingAge()).as("nothing available").isNull();
    QueueStats orders = stats.get(1);
    assertThat(counts(orders)).containsExactly(2L, 1L, 1L, 1L);
    assertThat(orders.oldestPendingAge()).isPositive().isLessThan(Duration.ofMinutes(1));
  }

  /** Stats may find the queues status by status (PostgreSQL and SQLite: one partial index each). */
  @Test
  void stats_list_a_queue_whatever_the_status_of_its_only_messages() {
    claimOneOf("only-inflight");
    resolveApplied(claimOneOf("only-dead"), new DeadLetter("poison"));
    resolveApplied(claimOneOf("only-done"), new Done(true));
    resolveApplied(claimOneOf("only-deleted"), new Done(false));

    List<QueueStats> stats = queues.stats();

    assertThat(stats)
        .extracting(QueueStats::queue)
        .containsExactly("only-dead", "only-done", "only-inflight");
    assertThat(stats.stream().map(QueueDeadLetterComplianceTest::counts).toList())
        .containsExactly(List.of(0L, 0L, 1L, 0L), List.of(0L, 0L, 0L, 1L), List.of(0L, 1L, 0L, 0L));
  }

  private QueueMessage claimOneOf(String queue) {
    long id = enqueue(message(queue));
    QueueMessage claimed = queues.claim(ClaimRequest.of(queue, a, 1, LEASE)).get(0);
    assertThat(claimed.id()).isEqualTo(id);
    return claimed;
  }

  /**
   * @return pending, in flight, dead, done
   */
  private static List<Long> counts(QueueStats stats) {
    return List.of(stats.pending(), stats.inflight(), stats.dead(), stats.done());
  }
}
