package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 5's bad input: oversized payloads, invalid policies, unknown messages in admin calls,
 * replay of a message that is not dead. Each is refused with a message naming what was wrong, and
 * nothing is written.
 */
class QueueBadInputTest {
  private final InMemoryStore store = InMemoryStore.create();
  private final Queue queue =
      Queue.on(store.queues(), "work", QueuePolicy.defaults().withPayloadLimit(10));

  @Test
  void an_oversized_payload_is_refused_and_nothing_is_enqueued() {
    assertThatThrownBy(() -> queue.enqueue(OutgoingMessage.of(new byte[11])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("11 bytes")
        .hasMessageContaining("limit of 10 bytes")
        .hasMessageContaining("'work'");
    // One oversized message in a batch refuses the whole batch.
    assertThatThrownBy(
            () ->
                queue.enqueueAll(
                    List.of(OutgoingMessage.of(new byte[1]), OutgoingMessage.of(new byte[11]))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.queues().stats()).isEmpty();
    assertThat(queue.enqueue(OutgoingMessage.of(new byte[10]))).isPositive();
  }

  @Test
  void invalid_policies_are_refused_naming_the_field() {
    QueuePolicy defaults = QueuePolicy.defaults();
    assertThatThrownBy(() -> defaults.withMaxAttempts(0))
        .hasMessageContaining("max attempts must be at least 1, got 0");
    assertThatThrownBy(
            () -> defaults.withBackoff(Duration.ofSeconds(-1), 2, Duration.ofMinutes(1), 0))
        .hasMessageContaining("backoff base must be positive");
    assertThatThrownBy(
            () -> defaults.withBackoff(Duration.ofSeconds(1), 0.5, Duration.ofMinutes(1), 0))
        .hasMessageContaining("backoff factor must be at least 1, got 0.5");
    assertThatThrownBy(
            () -> defaults.withBackoff(Duration.ofSeconds(10), 2, Duration.ofSeconds(1), 0))
        .hasMessageContaining("backoff cap must not be shorter than the backoff base");
    assertThatThrownBy(
            () -> defaults.withBackoff(Duration.ofSeconds(1), 2, Duration.ofMinutes(1), 1.5))
        .hasMessageContaining("jitter must be between 0 and 1, got 1.5");
    assertThatThrownBy(() -> defaults.withLease(Duration.ofMillis(10)))
        .hasMessageContaining("lease must be at least 100 ms");
    assertThatThrownBy(() -> defaults.withRetention(Duration.ofSeconds(-1), Duration.ZERO))
        .hasMessageContaining("done retention must not be null or negative");
    assertThatThrownBy(() -> defaults.withPayloadLimit(0))
        .hasMessageContaining("payload limit must be 1 to");
    assertThatThrownBy(() -> defaults.withNonRetryable((Class<? extends Throwable>) null))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void malformed_names_keys_and_batches_are_refused() {
    assertThatThrownBy(() -> Queue.on(store.queues(), "Work Queue", QueuePolicy.defaults()))
        .hasMessageContaining("queue name")
        .hasMessageContaining("'Work Queue'");
    assertThatThrownBy(() -> OutgoingMessage.text("x").key(" padded"))
        .hasMessageContaining("ordering key");
    assertThatThrownBy(() -> OutgoingMessage.text("x").delay(Duration.ofSeconds(-1)))
        .hasMessageContaining("delay");
    assertThatThrownBy(() -> OutgoingMessage.text("x").dedupeKey("d".repeat(256)))
        .hasMessageContaining("dedupe key");
    assertThatThrownBy(() -> queue.enqueueAll(List.of()))
        .hasMessageContaining("1 to 1000 messages, got 0");
    assertThatThrownBy(
            () -> queue.enqueueAll(Collections.nCopies(1001, OutgoingMessage.of(new byte[1]))))
        .hasMessageContaining("got 1001");
    assertThat(store.queues().stats()).isEmpty();
  }

  @Test
  void replaying_an_unknown_message_or_one_that_is_not_dead_is_refused_and_changes_nothing() {
    long id = queue.enqueue(OutgoingMessage.text("ok"));
    Queue other = Queue.on(store.queues(), "other", QueuePolicy.defaults());

    assertThatThrownBy(() -> queue.replay(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is PENDING, not a dead letter; nothing replayed");
    assertThatThrownBy(() -> queue.replay(id + 100))
        .hasMessageContaining("has no message " + (id + 100));
    assertThatThrownBy(() -> other.replay(id))
        .hasMessageContaining("queue 'other' has no message " + id);
    assertThat(queue.message(id).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    assertThat(queue.message(id).orElseThrow().attempts()).isZero();
  }

  @Test
  void a_consumer_registered_twice_or_with_bad_concurrency_is_refused() {
    TenureNodeBuilder builder = TenureNode.builder(store).name("n1").consumer(queue, 4, d -> {});
    assertThatThrownBy(() -> builder.consumer(queue, 4, d -> {}))
        .hasMessageContaining("queue 'work' already has a consumer on this node");
    assertThatThrownBy(() -> TenureNode.builder(store).consumer(queue, 0, d -> {}))
        .hasMessageContaining("consumer concurrency must be 1 to 1000, got 0");
    assertThatThrownBy(() -> TenureNode.builder(store).batchConsumer(queue, 1, 0, ds -> {}))
        .hasMessageContaining("batch size must be 1 to 1000, got 0");
    assertThatThrownBy(() -> builder.exclusiveConsumer(queue, d -> {}))
        .hasMessageContaining("queue 'work' already has a consumer on this node");
  }

  @Test
  void retry_delays_grow_by_the_factor_up_to_the_cap_within_the_jitter() {
    QueuePolicy policy =
        QueuePolicy.defaults().withBackoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(10), 0.2);
    for (int i = 0; i < 200; i++) {
      assertThat(policy.retryDelay(1)).isBetween(Duration.ofMillis(800), Duration.ofMillis(1200));
      assertThat(policy.retryDelay(3)).isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
      assertThat(policy.retryDelay(30)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(10));
    }
    QueuePolicy exact = policy.withBackoff(Duration.ofMillis(100), 3, Duration.ofSeconds(1), 0);
    assertThat(exact.retryDelay(2)).isEqualTo(Duration.ofMillis(300));
  }
}
