package io.tenure.test;

import java.util.List;

/**
 * What one {@link TenureTestKit#drain} did, message by message, as a node's consumer would have
 * done it.
 *
 * @param queue the queue drained
 * @param handled messages whose handler returned: done (deleted, or kept {@code DONE} as the policy
 *     or their dedupe window says)
 * @param retried failed attempts with attempts left: pending again after the policy's backoff, so
 *     not drained again until the clock passes it
 * @param dead messages that became dead letters: out of attempts, of a non-retryable failure, or
 *     timed out under {@link io.tenure.OnTimeout#DEAD_LETTER}
 * @param lostClaims messages whose outcome changed nothing because their claim was gone when it was
 *     written (the handler cancelled its own message, or something else took it back)
 * @param failures every failed attempt, in the order they ran: a handler that threw, or ran past
 *     its timeout by the test clock (a {@link java.util.concurrent.TimeoutException})
 */
public record DrainResult(
    String queue, int handled, int retried, int dead, int lostClaims, List<Failure> failures) {
  /** Copies the failures. */
  public DrainResult {
    failures = List.copyOf(failures);
  }

  /**
   * One failed attempt.
   *
   * @param messageId the message
   * @param attempt which attempt failed, 1 for the first
   * @param error what the handler threw (an {@link AssertionError} of the handler's own counts too,
   *     as on a node)
   */
  public record Failure(long messageId, int attempt, Throwable error) {}

  /**
   * @return how many messages' attempts ran: handled, retried, dead and lost
   */
  public int attempts() {
    return handled + retried + dead + lostClaims;
  }

  /**
   * @return e.g. {@code queue 'emails': 2 handled, 1 retried, 0 dead}, with the lost claims and the
   *     first failure when there are any
   */
  @Override
  public String toString() {
    StringBuilder text =
        new StringBuilder("queue '")
            .append(queue)
            .append("': ")
            .append(handled)
            .append(" handled, ")
            .append(retried)
            .append(" retried, ")
            .append(dead)
            .append(" dead");
    if (lostClaims > 0) {
      text.append(", ").append(lostClaims).append(" lost claims");
    }
    if (!failures.isEmpty()) {
      Failure first = failures.getFirst();
      text.append("; first failure: message ")
          .append(first.messageId())
          .append(" attempt ")
          .append(first.attempt())
          .append(": ")
          .append(first.error());
    }
    return text.toString();
  }
}
