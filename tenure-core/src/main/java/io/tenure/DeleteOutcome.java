package io.tenure;

/** What deleting one message did (SPEC §12.7). */
public enum DeleteOutcome {
  /**
   * It was pending, done, dead or cancelled: it is gone for good, and its dedupe key is free for
   * the next enqueue.
   */
  DELETED,
  /**
   * It is in flight: nothing changed. Its owner's claim holds; cancel it first ({@link
   * Queue#cancel(long)}), then delete it.
   */
  IN_FLIGHT,
  /** No such message (never stored, or deleted): nothing changed. */
  NOT_FOUND
}
