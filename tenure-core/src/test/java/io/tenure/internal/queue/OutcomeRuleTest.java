package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DedupeWindow;
import io.tenure.MessageStatus;
import io.tenure.OnTimeout;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The outcome rule (SPEC §6.3, §6.4): the one owner of retry or dead, for handled messages and
 * expired leases alike, and of the error text.
 */
class OutcomeRuleTest {
  @Provide
  Arbitrary<Throwable> failures() {
    return Arbitraries.strings()
        .ofMaxLength(3000)
        .flatMap(
            text ->
                Arbitraries.of(
                    new IllegalStateException(text),
                    new IllegalArgumentException(text),
                    new java.io.IOException(text),
                    new AssertionError(text)));
  }

  @Property
  void a_handler_that_returns_is_done_kept_only_with_a_retention(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 20) int attempts,
      @ForAll boolean retained) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withMaxAttempts(maxAttempts)
            .withRetention(retained ? Duration.ofHours(1) : Duration.ZERO, Duration.ofDays(1));
    assertThat(OutcomeRule.decide(claimed(attempts, maxAttempts), null, policy))
        .isEqualTo(new Resolution.Done(retained));
  }

  @Property
  void a_failure_retries_while_attempts_remain_and_is_dead_on_the_last(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 25) int attempts,
      @ForAll("failures") Throwable failure) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withMaxAttempts(maxAttempts)
            .withBackoff(Duration.ofMillis(10), 2.0, Duration.ofMinutes(1), 0.0);
    Resolution.Outcome outcome =
        OutcomeRule.decide(claimed(attempts, maxAttempts), failure, policy);
    String error = OutcomeRule.describe(failure);
    if (attempts >= maxAttempts) {
      assertThat(outcome).isEqualTo(new Resolution.DeadLetter(error));
    } else {
      assertThat(outcome).isEqualTo(new Resolution.Retry(policy.retryDelay(attempts), error));
    }
  }

  @Property
  void a_non_retryable_failure_is_dead_at_once_whatever_attempts_remain(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 20) int attempts,
      @ForAll("failures") Throwable failure) {
    QueuePolicy policy =
        QueuePolicy.defaults().withMaxAttempts(maxAttempts).withNonRetryable(failure.getClass());
    assertThat(OutcomeRule.decide(claimed(attempts, maxAttempts), failure, policy))
        .isEqualTo(new Resolution.DeadLetter(OutcomeRule.describe(failure)));
  }

  @Property
  void an_expired_lease_repends_while_attempts_remain_and_is_dead_on_the_last(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 25) int attempts) {
    ReclaimRule.Decision decision = OutcomeRule.onLeaseExpired(claimed(attempts, maxAttempts));
    if (attempts >= maxAttempts) {
      assertThat(decision)
          .isEqualTo(
              new ReclaimRule.Dead("lease expired on attempt " + attempts + " of " + maxAttempts));
    } else {
      assertThat(decision).isEqualTo(new ReclaimRule.Repend());
    }
  }

  @Property
  void a_handled_failure_and_an_expired_lease_agree_on_which_attempt_is_the_last(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 25) int attempts,
      @ForAll("failures") Throwable failure) {
    QueueMessage message = claimed(attempts, maxAttempts);
    boolean deadAfterFailure =
        OutcomeRule.decide(message, failure, QueuePolicy.defaults().withMaxAttempts(maxAttempts))
            instanceof Resolution.DeadLetter;
    boolean deadAfterExpiry = OutcomeRule.onLeaseExpired(message) instanceof ReclaimRule.Dead;
    assertThat(deadAfterExpiry).isEqualTo(deadAfterFailure);
  }

  @Property
  void a_retry_waits_the_policys_delay_within_its_jitter(
      @ForAll @IntRange(min = 1, max = 30) int attempts, @ForAll("failures") Throwable failure) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withMaxAttempts(31)
            .withBackoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(30), 0.5);
    Resolution.Retry retry =
        (Resolution.Retry) OutcomeRule.decide(claimed(attempts, 31), failure, policy);
    double plain = Math.min(100e6 * Math.pow(2, attempts - 1), 30e9);
    assertThat((double) retry.in().toNanos())
        .isBetween(plain * 0.5 - 1, Math.min(plain * 1.5 + 1, 30e9));
  }

  @Property
  void the_error_is_the_failures_text_cut_to_2000_characters(
      @ForAll("failures") Throwable failure) {
    String text = failure.toString();
    String error = OutcomeRule.describe(failure);
    assertThat(error).hasSizeLessThanOrEqualTo(OutcomeRule.MAX_ERROR_LENGTH);
    assertThat(text).startsWith(error);
    if (text.length() <= OutcomeRule.MAX_ERROR_LENGTH) {
      assertThat(error).isEqualTo(text);
    } else {
      assertThat(error).hasSize(OutcomeRule.MAX_ERROR_LENGTH);
    }
  }

  @Test
  void an_error_of_exactly_2000_characters_is_kept_whole_and_one_more_is_cut() {
    String prefix = new IllegalStateException("").toString();
    Throwable fits = new IllegalStateException("x".repeat(2000 - prefix.length()));
    Throwable over = new IllegalStateException("x".repeat(2001 - prefix.length()));

    assertThat(OutcomeRule.describe(fits)).isEqualTo(fits.toString()).hasSize(2000);
    assertThat(OutcomeRule.describe(over)).isEqualTo(over.toString().substring(0, 2000));
  }

  @Test
  void the_first_claim_of_a_one_attempt_message_that_fails_is_a_dead_letter() {
    Resolution.Outcome outcome =
        OutcomeRule.decide(
            claimed(1, 1), new IllegalStateException("boom"), QueuePolicy.defaults());
    assertThat(outcome)
        .isEqualTo(new Resolution.DeadLetter("java.lang.IllegalStateException: boom"));
  }

  @Property
  void a_done_message_whose_dedupe_key_is_held_after_its_finish_is_kept_whatever_the_retention(
      @ForAll @IntRange(min = 0, max = 3) int window, @ForAll boolean retained) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withRetention(retained ? Duration.ofHours(1) : Duration.ZERO, Duration.ofDays(1));
    DedupeWindow dedupe =
        switch (window) {
          case 0 -> DedupeWindow.untilDeleted();
          case 1 -> DedupeWindow.whileActive();
          default -> DedupeWindow.afterFinish(Duration.ofMinutes(window));
        };
    QueueMessage withKey = withDedupe(claimed(1, 3), "k", dedupe);
    QueueMessage withoutKey = withDedupe(claimed(1, 3), null, dedupe);

    assertThat(OutcomeRule.decide(withKey, null, policy))
        .isEqualTo(new Resolution.Done(retained || window >= 2));
    assertThat(OutcomeRule.decide(withoutKey, null, policy))
        .as("no key to hold")
        .isEqualTo(new Resolution.Done(retained));
  }

  @Property
  void a_timeout_retries_as_a_failure_would_or_is_dead_when_the_policy_or_the_attempts_say_so(
      @ForAll @IntRange(min = 1, max = 20) int maxAttempts,
      @ForAll @IntRange(min = 1, max = 25) int attempts,
      @ForAll boolean deadOnTimeout) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withMaxAttempts(maxAttempts)
            .withBackoff(Duration.ofMillis(10), 2.0, Duration.ofMinutes(1), 0.0)
            .withTimeout(
                Duration.ofHours(1), deadOnTimeout ? OnTimeout.DEAD_LETTER : OnTimeout.RETRY);
    QueueMessage message = claimed(attempts, maxAttempts);
    String error = "timed out after PT30S on attempt " + attempts + " of " + maxAttempts;

    Resolution.Outcome outcome = OutcomeRule.onTimeout(message, Duration.ofSeconds(30), policy);

    if (deadOnTimeout || attempts >= maxAttempts) {
      assertThat(outcome).isEqualTo(new Resolution.DeadLetter(error));
    } else {
      assertThat(outcome).isEqualTo(new Resolution.Retry(policy.retryDelay(attempts), error));
    }
  }

  @Test
  void a_messages_own_timeout_replaces_its_queues() {
    QueuePolicy none = QueuePolicy.defaults();
    QueuePolicy hour = none.withTimeout(Duration.ofHours(1), OnTimeout.RETRY);
    QueueMessage plain = claimed(1, 3);
    QueueMessage own = withTimeout(plain, Duration.ofSeconds(5));

    assertThat(OutcomeRule.timeoutOf(plain, none)).isNull();
    assertThat(OutcomeRule.timeoutOf(plain, hour)).isEqualTo(Duration.ofHours(1));
    assertThat(OutcomeRule.timeoutOf(own, none)).isEqualTo(Duration.ofSeconds(5));
    assertThat(OutcomeRule.timeoutOf(own, hour)).isEqualTo(Duration.ofSeconds(5));
  }

  private static QueueMessage withDedupe(
      QueueMessage m, @org.jspecify.annotations.Nullable String key, DedupeWindow window) {
    return copy(m, key, m.timeout(), window);
  }

  private static QueueMessage withTimeout(QueueMessage m, Duration timeout) {
    return copy(m, m.dedupeKey(), timeout, m.dedupeWindow());
  }

  private static QueueMessage copy(
      QueueMessage m,
      @org.jspecify.annotations.Nullable String dedupeKey,
      @org.jspecify.annotations.Nullable Duration timeout,
      DedupeWindow window) {
    return new QueueMessage(
        m.id(),
        m.queue(),
        m.key(),
        m.payload(),
        m.contentType(),
        m.headers(),
        m.priority(),
        m.attempts(),
        m.maxAttempts(),
        m.availableAt(),
        m.status(),
        m.ownerNode(),
        m.claimToken(),
        m.leaseUntil(),
        m.lastError(),
        m.createdAt(),
        m.finishedAt(),
        dedupeKey,
        m.group(),
        timeout,
        window,
        m.progress(),
        m.checkpoint());
  }

  private static QueueMessage claimed(int attempts, int maxAttempts) {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    return new QueueMessage(
        7,
        "jobs",
        null,
        new byte[0],
        "text/plain",
        Map.of(),
        0,
        attempts,
        maxAttempts,
        now,
        MessageStatus.INFLIGHT,
        "node-1",
        "token",
        now.plusSeconds(30),
        null,
        now,
        null,
        null,
        null);
  }
}
