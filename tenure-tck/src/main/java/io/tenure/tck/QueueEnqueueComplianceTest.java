package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.NewMessage;
import io.tenure.spi.Resolution.Done;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.1: enqueue (ids in list order, every field stored as given, dedupe keys), the
 * transactional outbox and enqueue wake-ups, on every provider.
 */
public abstract class QueueEnqueueComplianceTest extends QueueKit {
  // ---- enqueue and claim

  @Test
  void
      a_claim_takes_the_message_in_flight_for_its_owner_with_a_token_one_attempt_and_a_lease_from_now() {
    long id = enqueue(message(QUEUE));
    Instant before = store.now();

    QueueMessage claimed = claimOne();

    assertThat(claimed.id()).isEqualTo(id);
    assertThat(claimed.status()).isEqualTo(MessageStatus.INFLIGHT);
    assertThat(claimed.ownerNode()).isEqualTo(a);
    assertThat(claimed.claimToken()).isNotBlank();
    assertThat(claimed.attempts()).isEqualTo(1);
    assertFromNow(claimed.leaseUntil(), LEASE, before);
    assertThat(stored(id)).as("returned as stored").isEqualTo(claimed);
    assertThat(claim(10)).as("claimed once").isEmpty();
  }

  @Test
  void done_without_keep_deletes_the_message() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));

    resolveApplied(claimed, new Done(false));

    assertThat(queues.find(claimed.id())).isEmpty();
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void done_with_keep_keeps_it_done_with_its_finish_time_and_it_is_never_claimed_again() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    Instant before = store.now();

    resolveApplied(claimed, new Done(true));

    QueueMessage done = stored(claimed.id());
    assertThat(done.status()).isEqualTo(MessageStatus.DONE);
    assertFromNow(done.finishedAt(), Duration.ZERO, before);
    assertThat(done.claimToken()).isNull();
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_batch_enqueue_returns_increasing_ids_in_list_order() {
    List<EnqueueResult> results =
        queues.enqueue(List.of(message(QUEUE), message(OTHER), message(QUEUE)));

    assertThat(results).extracting(EnqueueResult::inserted).containsExactly(true, true, true);
    List<Long> ids = results.stream().map(EnqueueResult::id).toList();
    assertThat(ids).isSorted().doesNotHaveDuplicates();
    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(ids.get(0), ids.get(2));
    assertThat(enqueue(message(QUEUE))).isGreaterThan(ids.get(2));
  }

  @Test
  void every_field_of_a_message_round_trips_exactly() {
    byte[] everyByte = new byte[256];
    IntStream.range(0, 256).forEach(i -> everyByte[i] = (byte) i);
    Map<String, String> headers = Map.of("trace", "Grüße, 日本, ✓", "empty", "");
    NewMessage empty =
        new NewMessage(
            QUEUE,
            "customer-42",
            new byte[0],
            "application/json; charset=utf-8",
            headers,
            7,
            4,
            Duration.ZERO,
            "order-42");
    NewMessage binary =
        new NewMessage(
            QUEUE, null, everyByte, "application/octet-stream", Map.of(), -3, 1, LATER, null);
    Instant before = store.now();

    List<EnqueueResult> results = queues.enqueue(List.of(empty, binary));

    QueueMessage first = stored(results.get(0).id());
    assertThat(first.queue()).isEqualTo(QUEUE);
    assertThat(first.key()).isEqualTo("customer-42");
    assertThat(first.payload()).isEmpty();
    assertThat(first.contentType()).isEqualTo("application/json; charset=utf-8");
    assertThat(first.headers()).isEqualTo(headers);
    assertThat(first.priority()).isEqualTo(7);
    assertThat(first.maxAttempts()).isEqualTo(4);
    assertThat(first.dedupeKey()).isEqualTo("order-42");
    assertPendingUnclaimed(first, 0);
    assertThat(first.lastError()).isNull();
    assertThat(first.finishedAt()).isNull();
    assertFromNow(first.createdAt(), Duration.ZERO, before);
    assertFromNow(first.availableAt(), Duration.ZERO, before);
    QueueMessage second = stored(results.get(1).id());
    assertThat(second.payload()).isEqualTo(everyByte);
    assertThat(second.key()).isNull();
    assertThat(second.headers()).isEmpty();
    assertThat(second.priority()).isEqualTo(-3);
    assertThat(second.dedupeKey()).isNull();
    assertFromNow(second.availableAt(), LATER, before);
  }

  @Test
  void a_repeated_dedupe_key_returns_the_first_id_and_stores_one_row() {
    NewMessage original = deduped(QUEUE, "order-7");
    NewMessage repeat =
        new NewMessage(
            QUEUE, "k", new byte[] {9}, "text/other", Map.of(), 5, 1, Duration.ZERO, "order-7");

    List<EnqueueResult> batch = queues.enqueue(List.of(original, repeat));
    long id = batch.get(0).id();

    assertThat(batch).containsExactly(new EnqueueResult(id, true), new EnqueueResult(id, false));
    assertThat(queues.enqueue(List.of(repeat))).containsExactly(new EnqueueResult(id, false));
    assertThat(all(QUEUE))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.id()).isEqualTo(id);
              assertThat(m.payload()).as("the first one is kept").isEqualTo(original.payload());
            });
  }

  @Test
  void a_dedupe_key_holds_whatever_the_status_until_its_message_is_deleted() {
    QueueMessage claimed = enqueueAndClaim(deduped(QUEUE, "order-8"));

    assertThat(queues.enqueue(List.of(deduped(QUEUE, "order-8"))))
        .containsExactly(new EnqueueResult(claimed.id(), false));
    resolveApplied(claimed, new Done(false));

    EnqueueResult again = queues.enqueue(List.of(deduped(QUEUE, "order-8"))).get(0);
    assertThat(again.inserted()).isTrue();
    assertThat(again.id()).isGreaterThan(claimed.id());
  }

  @Test
  void the_same_dedupe_key_in_another_queue_is_another_message() {
    EnqueueResult here = queues.enqueue(List.of(deduped(QUEUE, "order-9"))).get(0);
    EnqueueResult there = queues.enqueue(List.of(deduped(OTHER, "order-9"))).get(0);

    assertThat(there.inserted()).isTrue();
    assertThat(there.id()).isNotEqualTo(here.id());
    assertThat(all(OTHER)).extracting(QueueMessage::id).containsExactly(there.id());
  }

  // ---- transactional outbox (SPEC §6.1)

  @Test
  void
      an_outbox_enqueue_follows_the_callers_transaction_and_a_store_without_transactions_refuses_it()
          throws SQLException {
    Optional<Connection> opened = fixture.openConnection();
    // Not an assumption: a skipped kit test fails CI, and a JDBC fixture that forgot openConnection
    // lands in the refusal branch, whose connection fails the test on first use.
    if (opened.isEmpty()) {
      assertThatThrownBy(() -> queues.enqueue(unusableConnection(), List.of(message(QUEUE))))
          .isInstanceOf(UnsupportedOperationException.class);
      assertThat(all(QUEUE)).isEmpty();
      return;
    }
    try (Connection transaction = opened.get()) {
      transaction.setAutoCommit(false);
      queues.enqueue(transaction, List.of(message(QUEUE)));
      assertThat(transaction.isClosed() || transaction.getAutoCommit())
          .as("left open, in its transaction")
          .isFalse();
      transaction.rollback();
      assertThat(all(QUEUE))
          .as("rolled back")
          .isEmpty(); // SQLite may hand the rolled-back id out again
      long committed = queues.enqueue(transaction, List.of(message(QUEUE))).get(0).id();
      transaction.commit();

      assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(committed);
      assertThat(claimOne().id()).isEqualTo(committed);
    }
  }

  // ---- wake-ups (SPEC §6.5)

  @Test
  void listeners_hear_committed_enqueues_and_a_rolled_back_outbox_notifies_nobody()
      throws Exception {
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    Optional<AutoCloseable> subscription = queues.listen(heard::add);
    if (subscription.isEmpty()) {
      // This provider has no notifications (SQLite, MariaDB): its consumers poll. PostgreSQL and
      // the in-memory store must notify.
      assertThat(store.describe().provider()).isNotIn("postgresql", "memory");
      return;
    }
    try (AutoCloseable listening = subscription.get()) {
      // The subscription may connect in the background: probe until it hears.
      Await.until(
          Duration.ofSeconds(10),
          "the listener hears an enqueue",
          () -> {
            queues.enqueue(List.of(message("probe")));
            return heard.contains("probe");
          });
      Optional<Connection> opened = fixture.openConnection();
      if (opened.isPresent()) {
        try (Connection transaction = opened.get()) {
          transaction.setAutoCommit(false);
          queues.enqueue(transaction, List.of(message("rolled-back")));
          transaction.rollback();
        }
      }
      queues.enqueue(List.of(message("committed")));

      // Notifications arrive in commit order: once the later one is heard, an earlier one would be.
      Await.until(
          Duration.ofSeconds(10),
          "the committed enqueue is heard",
          () -> heard.contains("committed"));
      assertThat(heard).doesNotContain("rolled-back");
    }
  }

  private static Connection unusableConnection() {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              throw new AssertionError(
                  "the fixture gave no JDBC connection, so the store must refuse an outbox enqueue;"
                      + " a JDBC provider's fixture must implement StoreFixture.openConnection()");
            });
  }
}
