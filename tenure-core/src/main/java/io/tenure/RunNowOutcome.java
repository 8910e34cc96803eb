package io.tenure;

/** What making one message available now did (SPEC §12.7). */
public enum RunNowOutcome {
  /**
   * It was pending and not yet available (delayed, or waiting for a retry): it is available now, by
   * the database clock, with nothing else changed.
   */
  AVAILABLE_NOW,
  /**
   * It was pending and available already: nothing changed. It waits for a claim the queue's rules
   * allow (its key's order, a pause, the limits).
   */
  ALREADY_AVAILABLE,
  /** It is in flight, done, dead or cancelled: nothing changed. */
  NOT_PENDING,
  /** No such message (never stored, or deleted): nothing changed. */
  NOT_FOUND
}
