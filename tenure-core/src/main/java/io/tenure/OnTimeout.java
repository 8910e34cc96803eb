package io.tenure;

/**
 * What becomes of a message whose handler ran past its timeout (SPEC §12.4). Either way the handler
 * is told ({@link Delivery#timedOut()}, {@link Delivery#onCancel}) and never interrupted; its own
 * outcome, when it returns, changes nothing.
 */
public enum OnTimeout {
  /** A failed attempt: retried after the policy's backoff, a dead letter on the last attempt. */
  RETRY,
  /** A dead letter at once. */
  DEAD_LETTER
}
