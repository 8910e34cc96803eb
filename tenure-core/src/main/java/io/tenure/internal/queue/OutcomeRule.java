package io.tenure.internal.queue;

import io.tenure.OnTimeout;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What becomes of a message its handler finished (SPEC §6.3) or whose lease expired (SPEC §6.4):
 * the one place that decides retry or dead (the stores apply what they are told), and the one place
 * that words the error a message keeps. Pure: the outcome depends only on the message as claimed,
 * the failure and the policy (whose retry delay carries the policy's jitter). Public for the user
 * test kit's synchronous drain, which reaches it through {@code io.tenure.internal.testing} only.
 */
public final class OutcomeRule {
  /** The longest error text a message keeps; the rest of a long failure's text is cut. */
  static final int MAX_ERROR_LENGTH = 2000;

  private OutcomeRule() {}

  /**
   * The outcome of one handled message: done if the handler returned; a dead letter if the failure
   * is of a non-retryable type or the claim used the last attempt; otherwise a retry after the
   * policy's delay for the attempt that failed.
   *
   * @param message the message as its claim returned it (attempts counts this claim)
   * @param failure what the handler threw, null if it returned normally
   */
  public static Resolution.Outcome decide(
      QueueMessage message, @Nullable Throwable failure, QueuePolicy policy) {
    if (failure == null) {
      // A message whose dedupe key is held for a while after its finish must be kept that long.
      boolean heldKey = message.dedupeKey() != null && message.dedupeWindow().keepsFinished();
      return new Resolution.Done(!policy.retainDone().isZero() || heldKey);
    }
    String error = describe(failure);
    if (policy.isNonRetryable(failure) || usedLastAttempt(message)) {
      return new Resolution.DeadLetter(error);
    }
    return new Resolution.Retry(policy.retryDelay(message.attempts()), error);
  }

  /**
   * The outcome of a message whose handler ran past its timeout (SPEC §12.4): a dead letter if the
   * policy says so or the claim used the last attempt, otherwise a retry after the policy's delay,
   * as a failure would be.
   *
   * @param message the message as claimed
   * @param timeout the timeout it ran past
   */
  public static Resolution.Outcome onTimeout(
      QueueMessage message, Duration timeout, QueuePolicy policy) {
    String error =
        "timed out after "
            + timeout
            + " on attempt "
            + message.attempts()
            + " of "
            + message.maxAttempts();
    if (policy.onTimeout() == OnTimeout.DEAD_LETTER || usedLastAttempt(message)) {
      return new Resolution.DeadLetter(error);
    }
    return new Resolution.Retry(policy.retryDelay(message.attempts()), error);
  }

  /**
   * The timeout a handler of {@code message} runs under: its own, else its queue's.
   *
   * @return null for none
   */
  public static @Nullable Duration timeoutOf(QueueMessage message, QueuePolicy policy) {
    return message.timeout() != null ? message.timeout() : policy.timeout();
  }

  /**
   * What the reclaim sweep makes of a message whose lease expired: a dead letter if the expired
   * claim used its last attempt (the handler may have run, so the attempt stays spent), otherwise
   * pending again at once. The reclaim has no handler outcome and no policy to consult: the message
   * carries its own attempt limit.
   *
   * @param expired the message as stored, its attempts counting the expired claim
   */
  public static ReclaimRule.Decision onLeaseExpired(QueueMessage expired) {
    if (usedLastAttempt(expired)) {
      return new ReclaimRule.Dead(
          "lease expired on attempt " + expired.attempts() + " of " + expired.maxAttempts());
    }
    return new ReclaimRule.Repend();
  }

  /** True once the claim that counted the message's attempts was its last allowed. */
  private static boolean usedLastAttempt(QueueMessage message) {
    return message.attempts() >= message.maxAttempts();
  }

  /** The error a failed message keeps: the failure's text, at most {@link #MAX_ERROR_LENGTH}. */
  static String describe(Throwable failure) {
    String text = failure.toString();
    return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text;
  }
}
