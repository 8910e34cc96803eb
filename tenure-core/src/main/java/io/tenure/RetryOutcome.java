package io.tenure;

/** What retrying one finished message did (SPEC §12.7). */
public enum RetryOutcome {
  /**
   * It was dead or cancelled: it is pending again, available now, with its attempts reset to 0 and
   * its last error kept, as a replayed dead letter is.
   */
  RETRIED,
  /** It is pending, in flight or done: nothing changed. */
  NOT_DEAD_OR_CANCELLED,
  /** No such message (never stored, or deleted): nothing changed. */
  NOT_FOUND
}
