package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link QueueStore}'s contract that the other queue kit classes do not already check,
 * each named by its number in the contract (Q3, Q7, ...), on every provider: argument refusals that
 * must come before any write, reads that must write nothing, the order and limit of the dead-letter
 * admin calls, the typed errors, and the end of a subscription.
 */
public abstract class QueueContractComplianceTest extends FixtureSupport {
  private static final String QUEUE = "orders";
  private static final Duration LEASE = Duration.ofMinutes(5);

  private Store store;
  private QueueStore queues;
  private final String node = UUID.randomUUID().toString();

  @BeforeEach
  void openStore() {
    store = freshStore();
    queues = store.queues();
  }

  private static NewMessage message(String queue, @Nullable String key) {
    return new NewMessage(
        queue, key, new byte[] {7}, "text/plain", Map.of(), 0, 3, Duration.ZERO, null);
  }

  private long enqueue(String queue) {
    return queues.enqueue(List.of(message(queue, null))).get(0).id();
  }

  private QueueMessage claimOne() {
    List<QueueMessage> claimed = queues.claim(ClaimRequest.of(QUEUE, node, 1, LEASE));
    assertThat(claimed).as("one message to claim").hasSize(1);
    return claimed.get(0);
  }

  private long deadLetter(@Nullable String key) {
    queues.enqueue(List.of(message(QUEUE, key)));
    QueueMessage claimed = claimOne();
    assertThat(
            queues
                .resolve(List.of(new Resolution(claimed.claim(), new DeadLetter("poison"))), null)
                .allApplied())
        .isTrue();
    return claimed.id();
  }

  private List<QueueMessage> all() {
    return queues.list(new MessageQuery(QUEUE, null, null, null, null, 0, 10_000));
  }

  private List<MessageStatus> statuses(List<Long> ids) {
    return ids.stream().map(id -> queues.find(id).map(QueueMessage::status).orElse(null)).toList();
  }

  /** Q7: the refusal comes before the write, so not even the first message of the batch lands. */
  @Test
  void an_empty_or_oversized_enqueue_is_refused_and_writes_nothing() {
    List<NewMessage> oversized =
        Collections.nCopies(QueueStore.MAX_BATCH + 1, message(QUEUE, null));

    assertThatThrownBy(() -> queues.enqueue(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queues.enqueue(oversized))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(QueueStore.MAX_BATCH));

    assertThat(all()).isEmpty();
    assertThat(queues.stats()).isEmpty();
    assertThat(queues.enqueue(Collections.nCopies(QueueStore.MAX_BATCH, message(QUEUE, null))))
        .as("the largest batch allowed")
        .hasSize(QueueStore.MAX_BATCH);
  }

  /** Q18: one held claim among made-up ones, one too many: refused before anything is written. */
  @Test
  void an_oversized_resolve_is_refused_and_changes_nothing() {
    enqueue(QUEUE);
    QueueMessage claimed = claimOne();
    List<Resolution> oversized =
        IntStream.rangeClosed(0, QueueStore.MAX_BATCH)
            .mapToObj(
                i ->
                    i == 0
                        ? new Resolution(claimed.claim(), new Done(false))
                        : new Resolution(
                            new MessageClaim(claimed.id() + i, "made-up"), new Done(false)))
            .toList();

    assertThatThrownBy(() -> queues.resolve(oversized, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(QueueStore.MAX_BATCH));

    assertThat(queues.find(claimed.id())).contains(claimed);
  }

  /** Q20: a lease born expired would hand the message to the reclaim sweep at once. */
  @Test
  void a_zero_or_negative_extension_is_refused_and_changes_nothing() {
    enqueue(QUEUE);
    QueueMessage claimed = claimOne();

    for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1))) {
      assertThatThrownBy(() -> queues.extend(claimed.claim(), bad))
          .as("lease %s", bad)
          .isInstanceOf(IllegalArgumentException.class);
    }

    assertThat(queues.find(claimed.id())).contains(claimed);
    assertThat(queues.reclaimExpired(100, QueueKit.REPEND_ALL)).isZero();
  }

  /** Q24, Q25: reads never claim, never re-pend and never create a row. */
  @Test
  void finding_and_listing_change_nothing_and_an_unknown_id_is_empty() {
    long pending = enqueue(QUEUE);
    long other = enqueue("billing");
    QueueMessage inflight = claimOne();
    assertThat(inflight.id()).isEqualTo(pending);
    long waiting = enqueue(QUEUE);
    QueueMessage before = queues.find(waiting).orElseThrow();

    assertThat(queues.find(waiting + 1_000_000)).isEmpty();
    for (int i = 0; i < 3; i++) {
      assertThat(all()).extracting(QueueMessage::id).containsExactly(pending, waiting);
      assertThat(queues.list(new MessageQuery(QUEUE, null, null, null, null, pending, 10)))
          .as("after the first id")
          .extracting(QueueMessage::id)
          .containsExactly(waiting);
      assertThat(
              queues.list(new MessageQuery(QUEUE, MessageStatus.INFLIGHT, null, null, null, 0, 1)))
          .containsExactly(inflight);
    }

    assertThat(queues.find(pending)).contains(inflight);
    assertThat(queues.find(waiting)).contains(before);
    assertThat(queues.find(other).map(QueueMessage::status)).contains(MessageStatus.PENDING);
    assertThat(queues.stats()).hasSize(2);
  }

  /**
   * Q26, Q28: the admin calls page through dead letters oldest first, whatever {@code afterId} says
   * (it pages a listing, not a replay), so repeated calls with a small limit work through the
   * backlog in order.
   */
  @Test
  void replay_and_purge_take_the_oldest_dead_letters_first_up_to_the_limit_whatever_the_after_id() {
    List<Long> dead = IntStream.range(0, 4).mapToObj(i -> deadLetter(null)).toList();
    long last = dead.get(3);
    MessageQuery twoAfterTheLast =
        new MessageQuery(QUEUE, MessageStatus.DEAD, null, null, null, last, 2);
    MessageQuery oneAfterTheLast =
        new MessageQuery(QUEUE, MessageStatus.DEAD, null, null, null, last, 1);

    assertThat(queues.replay(twoAfterTheLast)).isEqualTo(2);
    assertThat(statuses(dead))
        .containsExactly(
            MessageStatus.PENDING, MessageStatus.PENDING, MessageStatus.DEAD, MessageStatus.DEAD);

    assertThat(queues.purge(oneAfterTheLast)).isEqualTo(1);
    assertThat(statuses(dead))
        .containsExactly(MessageStatus.PENDING, MessageStatus.PENDING, null, MessageStatus.DEAD);
    assertThat(queues.purge(oneAfterTheLast)).isEqualTo(1);
    assertThat(queues.purge(oneAfterTheLast)).as("only dead letters").isZero();
    assertThat(all()).extracting(QueueMessage::id).containsExactly(dead.get(0), dead.get(1));
  }

  /** Q3: a closed store says so for every queue call, and a missing table is a schema error. */
  @Test
  void a_closed_store_refuses_queue_calls_as_unavailable_and_a_dropped_table_as_missing() {
    Store closed = freshStore();
    QueueStore closedQueues = closed.queues();
    closed.close();

    assertThatThrownBy(() -> closedQueues.enqueue(List.of(message(QUEUE, null))))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedQueues.claim(ClaimRequest.of(QUEUE, node, 1, LEASE)))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedQueues.find(1)).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(closedQueues::stats).isInstanceOf(StoreUnavailableException.class);

    TablePrefix prefix = freshPrefix();
    QueueStore dropped = fixture.open(prefix).queues();
    fixture.dropTables(prefix);

    assertThatThrownBy(() -> dropped.enqueue(List.of(message(QUEUE, null))))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.claim(ClaimRequest.of(QUEUE, node, 1, LEASE)))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.find(1)).isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.reclaimExpired(10, QueueKit.REPEND_ALL))
        .isInstanceOf(SchemaMissingException.class);
  }

  /**
   * Q32. A second subscription is the witness: once it has heard an enqueue made after the first
   * was closed, the first would have heard it too (PostgreSQL delivers a commit's notification to
   * every listening session; the in-memory store calls every listener before the enqueue returns).
   */
  @Test
  void a_closed_subscription_hears_nothing_more() throws Exception {
    List<String> closedHeard = new CopyOnWriteArrayList<>();
    List<String> witnessHeard = new CopyOnWriteArrayList<>();
    Optional<AutoCloseable> closing = queues.listen(closedHeard::add);
    if (closing.isEmpty()) {
      // No notifications here (SQLite, MariaDB): nothing to stop. Those two must notify.
      assertThat(store.describe().provider()).isNotIn("postgresql", "memory");
      return;
    }
    try (AutoCloseable witness = queues.listen(witnessHeard::add).orElseThrow()) {
      // Each subscription may connect in the background: probe until both hear.
      Await.until(
          Duration.ofSeconds(10),
          "both listeners hear an enqueue",
          () -> {
            enqueue("probe");
            return closedHeard.contains("probe") && witnessHeard.contains("probe");
          });

      closing.get().close();
      enqueue("after-close");
      Await.until(
          Duration.ofSeconds(10),
          "the witness hears the enqueue after the close",
          () -> witnessHeard.contains("after-close"));

      assertThat(closedHeard).doesNotContain("after-close");
    }
  }
}
