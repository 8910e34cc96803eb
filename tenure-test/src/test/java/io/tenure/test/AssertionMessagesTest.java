package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Tenure;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** A failed assertion says what it wanted and lists what the queue holds, readably. */
@TenureTest
class AssertionMessagesTest {
  @Test
  void a_missing_message_lists_every_message_of_the_queue_with_the_clock(
      Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults().withMaxAttempts(1));
    emails.enqueue(OutgoingMessage.text("welcome user 8").key("user-8").priority(5));
    emails.enqueue(OutgoingMessage.text("reminder").delay(Duration.ofHours(1)));
    emails.enqueue(OutgoingMessage.of(new byte[] {1, 2, 3}).group("tenant-1"));
    emails.enqueue(OutgoingMessage.text("bounced"));
    kit.drain(
        emails,
        delivery -> {
          if (delivery.text().equals("bounced")) {
            throw new IllegalStateException("mailbox full");
          }
        });
    emails.enqueue(OutgoingMessage.text("welcome user 9"));

    assertThatThrownBy(() -> kit.assertEnqueued(emails, Messages.text("welcome user 7")))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessage(
            """
            Expected at least one message of queue 'emails' waiting or in flight matching text \
            'welcome user 7', but found 0.
            Queue 'emails' holds 3 messages (now 2026-01-01T00:00:00Z):
              #2 PENDING, attempt 0 of 1, available 2026-01-01T01:00:00Z: text 'reminder'
              #4 DEAD, attempt 1 of 1, last error 'java.lang.IllegalStateException: mailbox full': \
            text 'bounced'
              #5 PENDING, attempt 0 of 1, available 2026-01-01T00:00:00Z: text 'welcome user 9'""");
  }

  @Test
  void the_count_variant_says_how_many_matched(Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());
    emails.enqueue(OutgoingMessage.of(new byte[] {1, 2, 3}).group("tenant-1").key("k"));
    emails.enqueue(OutgoingMessage.text("x".repeat(150)).priority(5));

    assertThat(kit.assertEnqueued(emails, 2, Messages.any())).hasSize(2);
    assertThatThrownBy(() -> kit.assertEnqueued(emails, 1, Messages.any()))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageStartingWith(
            "Expected 1 message of queue 'emails' waiting or in flight matching any message, but"
                + " found 2.")
        .hasMessageContaining(
            "#1 PENDING, attempt 0 of 10, available 2026-01-01T00:00:00Z, key 'k', group"
                + " 'tenant-1': 3 bytes of application/octet-stream")
        .hasMessageContaining(", priority 5: text '" + "x".repeat(100) + "...'");
  }

  @Test
  void an_empty_queue_says_so_and_a_dead_letter_assertion_names_its_state(
      Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());

    assertThatThrownBy(() -> kit.assertDeadLettered(emails, Messages.textContaining("bounce")))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessage(
            "Expected at least one message of queue 'emails' dead-lettered matching text"
                + " containing 'bounce', but found 0.\n"
                + "Queue 'emails' holds no messages (now 2026-01-01T00:00:00Z).");
  }

  @Test
  void predicates_print_their_descriptions_combined_and_a_lambda_prints_as_given(
      Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());

    assertThatThrownBy(
            () ->
                kit.assertEnqueued(
                    emails,
                    Messages.text("a")
                        .and(Messages.key("k").or(Messages.header("tenant", "t1")).negate())))
        .hasMessageContaining("matching text 'a' and not (key 'k' or header tenant: 't1'),");
    assertThatThrownBy(() -> kit.assertEnqueued(emails, m -> m.priority() > 3))
        .hasMessageContaining("matching the predicate given,");
    assertThatThrownBy(
            () ->
                kit.assertEnqueued(
                    emails, Messages.matching("an urgent one", m -> m.priority() > 3)))
        .hasMessageContaining("matching an urgent one,");
  }

  @Test
  void bad_input_is_refused_by_name(Tenure tenure, TenureTestKit kit) {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults());

    assertThatThrownBy(() -> kit.assertEnqueued(null, Messages.any()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue must not be null");
    assertThatThrownBy(() -> kit.assertEnqueued(emails, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("predicate must not be null; Messages.any() matches all");
    assertThatThrownBy(() -> kit.assertEnqueued(emails, -1, Messages.any()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected count must be 0 or more, got -1");
    assertThatThrownBy(() -> kit.drain(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue must not be null");
    assertThatThrownBy(() -> kit.drain(emails, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("handler must not be null");
    assertThatThrownBy(() -> kit.drain(emails))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "no handler for queue 'emails': register one with kit.handle(queue, handler), or call"
                + " drain(queue, handler)");
    kit.handle(emails, delivery -> {});
    assertThatThrownBy(() -> kit.handle(emails, delivery -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue 'emails' has a handler already in this test");
    assertThatThrownBy(() -> Messages.text(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> kit.nextAvailable(null)).isInstanceOf(IllegalArgumentException.class);
  }
}
