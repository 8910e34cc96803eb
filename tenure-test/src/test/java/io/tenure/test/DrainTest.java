package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.OnTimeout;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Tenure;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The synchronous drain on the in-memory store: each message through the store's own claim and
 * resolve, each outcome as a node's consumer decides it, and time only as the test moves it.
 */
@TenureTest
class DrainTest {
  /** No jitter: a retry's backoff is exactly the policy's, so the test can step to it. */
  private static final QueuePolicy EXACT =
      QueuePolicy.defaults()
          .withMaxAttempts(3)
          .withBackoff(Duration.ofSeconds(10), 2.0, Duration.ofMinutes(10), 0.0);

  @Test
  void an_enqueued_message_is_asserted_then_drained_and_gone(Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());
    emails.enqueue(OutgoingMessage.text("welcome user 7").key("user-7"));
    List<String> sent = new ArrayList<>();
    kit.handle(emails, delivery -> sent.add(delivery.text()));

    List<QueueMessage> waiting =
        kit.assertEnqueued(emails, Messages.text("welcome user 7").and(Messages.key("user-7")));
    DrainResult result = kit.drain(emails);

    assertThat(waiting).singleElement().extracting(QueueMessage::attempts).isEqualTo(0);
    assertThat(sent).containsExactly("welcome user 7");
    assertThat(result.handled()).isEqualTo(1);
    assertThat(result.attempts()).isEqualTo(1);
    assertThat(result.failures()).isEmpty();
    kit.assertEnqueued(emails, 0, Messages.any());
    assertThat(emails.message(waiting.getFirst().id())).as("done deletes").isEmpty();
  }

  @Test
  void a_failed_message_waits_for_its_backoff_and_runs_again_once_the_clock_passes_it(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", EXACT);
    long id = emails.enqueue(OutgoingMessage.text("welcome"));
    AtomicInteger calls = new AtomicInteger();
    kit.handle(
        emails,
        delivery -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("smtp down");
          }
        });

    DrainResult first = kit.drain(emails);
    assertThat(first.retried()).isEqualTo(1);
    assertThat(first.failures())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.messageId()).isEqualTo(id);
              assertThat(f.attempt()).isEqualTo(1);
              assertThat(f.error()).hasMessage("smtp down");
            });
    QueueMessage retrying = emails.message(id).orElseThrow();
    assertThat(retrying.availableAt()).isEqualTo(TestClock.DEFAULT_START.plusSeconds(10));
    assertThat(retrying.lastError()).isEqualTo("java.lang.IllegalStateException: smtp down");
    assertThat(kit.nextAvailable(emails)).contains(TestClock.DEFAULT_START.plusSeconds(10));

    clock.advance(Duration.ofSeconds(10).minusMillis(1));
    assertThat(kit.drain(emails).attempts()).as("not before its backoff").isZero();
    clock.advance(Duration.ofMillis(1));
    DrainResult second = kit.drain(emails);

    assertThat(second.handled()).isEqualTo(1);
    assertThat(calls).hasValue(2);
    assertThat(kit.nextAvailable(emails)).isEmpty();
  }

  @Test
  void a_message_that_always_fails_becomes_a_dead_letter_after_its_last_attempt(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", EXACT);
    emails.enqueue(OutgoingMessage.text("to nobody"));
    kit.handle(
        emails,
        delivery -> {
          throw new IllegalStateException("no mailbox, attempt " + delivery.attempt());
        });

    List<DrainResult> drains = new ArrayList<>();
    drains.add(kit.drain(emails));
    clock.advance(Duration.ofSeconds(10)); // 10 s after attempt 1
    drains.add(kit.drain(emails));
    clock.advance(Duration.ofSeconds(20)); // 20 s after attempt 2
    drains.add(kit.drain(emails));

    assertThat(drains).extracting(DrainResult::retried).containsExactly(1, 1, 0);
    assertThat(drains).extracting(DrainResult::dead).containsExactly(0, 0, 1);
    QueueMessage dead = kit.assertDeadLettered(emails, Messages.text("to nobody")).getFirst();
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.lastError())
        .isEqualTo("java.lang.IllegalStateException: no mailbox, attempt 3");
    clock.advance(Duration.ofDays(1));
    assertThat(kit.drain(emails).attempts()).as("a dead letter is never claimed").isZero();
  }

  @Test
  void a_non_retryable_failure_is_a_dead_letter_at_once(Tenure tenure, TenureTestKit kit) {
    Queue orders = tenure.queue("orders", EXACT.withNonRetryable(IllegalArgumentException.class));
    orders.enqueue(OutgoingMessage.text("order -1"));

    DrainResult result =
        kit.drain(
            orders,
            delivery -> {
              throw new IllegalArgumentException("negative order id");
            });

    assertThat(result.dead()).isEqualTo(1);
    assertThat(kit.assertDeadLettered(orders, Messages.any()))
        .singleElement()
        .extracting(QueueMessage::attempts)
        .isEqualTo(1);
  }

  @Test
  void a_delayed_message_is_drained_only_once_the_clock_reaches_it(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue reminders = tenure.queue("reminders", QueuePolicy.defaults());
    reminders.enqueue(OutgoingMessage.text("in an hour").delay(Duration.ofHours(1)));
    reminders.enqueue(OutgoingMessage.text("now"));
    List<String> seen = new ArrayList<>();
    kit.handle(reminders, delivery -> seen.add(delivery.text()));

    kit.drain(reminders);
    assertThat(seen).containsExactly("now");
    kit.assertEnqueued(reminders, 1, Messages.text("in an hour"));
    Instant due = kit.nextAvailable(reminders).orElseThrow();
    assertThat(due).isEqualTo(TestClock.DEFAULT_START.plus(Duration.ofHours(1)));

    clock.set(due);
    kit.drain(reminders);

    assertThat(seen).containsExactly("now", "in an hour");
  }

  @Test
  void a_handler_that_runs_past_its_timeout_by_the_test_clock_is_retried_as_timed_out(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue renders =
        tenure.queue("renders", EXACT.withTimeout(Duration.ofSeconds(5), OnTimeout.RETRY));
    long id = renders.enqueue(OutgoingMessage.text("poster"));
    List<Boolean> timedOut = new ArrayList<>();

    DrainResult result =
        kit.drain(
            renders,
            delivery -> {
              assertThat(delivery.timeout()).contains(Duration.ofSeconds(5));
              clock.advance(Duration.ofSeconds(5));
              timedOut.add(delivery.timedOut());
              timedOut.add(delivery.cancelled());
            });

    assertThat(timedOut).containsExactly(true, true);
    assertThat(result.retried()).isEqualTo(1);
    assertThat(result.failures())
        .singleElement()
        .extracting(DrainResult.Failure::error)
        .isInstanceOf(TimeoutException.class);
    assertThat(renders.message(id).orElseThrow().lastError())
        .isEqualTo("timed out after PT5S on attempt 1 of 3");
  }

  @Test
  void a_checkpoint_saved_by_a_failed_attempt_is_what_the_retry_resumes_from(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue imports = tenure.queue("imports", EXACT);
    imports.enqueue(OutgoingMessage.text("big file"));
    List<Integer> resumedAt = new ArrayList<>();
    kit.handle(
        imports,
        delivery -> {
          int from = delivery.lastCheckpoint().map(b -> ByteBuffer.wrap(b).getInt()).orElse(0);
          resumedAt.add(from);
          assertThat(delivery.checkpoint(ByteBuffer.allocate(4).putInt(from + 40).array()))
              .isTrue();
          delivery.progress(0.4, "copied 40 parts");
          if (from == 0) {
            throw new IllegalStateException("disk full");
          }
        });

    kit.drain(imports);
    assertThat(imports.stats().pending()).isEqualTo(1);
    assertThat(kit.assertEnqueued(imports, Messages.any()).getFirst().progress().note())
        .isEqualTo("copied 40 parts");
    clock.advance(Duration.ofSeconds(10));
    kit.drain(imports);

    assertThat(resumedAt).containsExactly(0, 40);
  }

  @Test
  void a_handler_that_cancels_its_own_message_loses_its_claim_and_changes_nothing(
      Tenure tenure, TenureTestKit kit) {
    Queue jobs = tenure.queue("jobs", QueuePolicy.defaults());
    long id = jobs.enqueue(OutgoingMessage.text("obsolete"));
    List<Boolean> cancelled = new ArrayList<>();

    DrainResult result =
        kit.drain(
            jobs,
            delivery -> {
              jobs.cancel(delivery.message().id());
              cancelled.add(delivery.cancelled());
              delivery.onCancel(() -> cancelled.add(true));
            });

    assertThat(cancelled).containsExactly(true, true);
    assertThat(result.lostClaims()).isEqualTo(1);
    assertThat(result.handled()).isZero();
    assertThat(jobs.message(id).orElseThrow().status()).isEqualTo(MessageStatus.CANCELLED);
  }

  @Test
  void messages_the_handler_enqueues_to_its_own_queue_are_drained_in_the_same_call(
      Tenure tenure, TenureTestKit kit) {
    Queue countdown = tenure.queue("countdown", QueuePolicy.defaults());
    countdown.enqueue(OutgoingMessage.text("3"));

    DrainResult result =
        kit.drain(
            countdown,
            delivery -> {
              int n = Integer.parseInt(delivery.text());
              if (n > 0) {
                countdown.enqueue(OutgoingMessage.text(Integer.toString(n - 1)));
              }
            });

    assertThat(result.handled()).isEqualTo(4);
  }

  @Test
  void a_handler_that_feeds_its_own_queue_forever_is_stopped_with_a_clear_error(
      Tenure tenure, TenureTestKit kit) {
    Queue loop = tenure.queue("loop", QueuePolicy.defaults());
    loop.enqueue(OutgoingMessage.text("again"));

    assertThatThrownBy(
            () -> kit.drain(loop, delivery -> loop.enqueue(OutgoingMessage.text("again"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("drain of queue 'loop' ran 10000 attempts")
        .hasMessageContaining("does its handler enqueue to its own queue");
    assertThat(loop.stats().inflight())
        .as("the message claimed past the bound is given back")
        .isZero();
  }

  @Test
  void a_paused_queue_drains_nothing_until_it_is_resumed(Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());
    emails.enqueue(OutgoingMessage.text("welcome"));
    kit.handle(emails, delivery -> {});
    emails.pause();

    assertThat(kit.drain(emails).attempts()).isZero();
    emails.resume();
    assertThat(kit.drain(emails).handled()).isEqualTo(1);
  }
}
