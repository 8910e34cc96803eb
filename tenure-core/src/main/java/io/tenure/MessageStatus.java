package io.tenure;

/** Where a queue message is in its life (SPEC §6). */
public enum MessageStatus {
  /** Waiting to be claimed once its {@code availableAt} has come. */
  PENDING,
  /** Claimed by a node, under a claim token, until its lease ends. */
  INFLIGHT,
  /** Handled; kept only while the queue's retention of done messages lasts. */
  DONE,
  /** A dead letter: out of attempts or not retryable. Kept until replayed or purged. */
  DEAD,
  /**
   * Cancelled by an operator (SPEC §12.3), pending or in flight: never claimed again, and an owner
   * that was running it can no longer resolve it. Kept as long as dead letters, so an operator can
   * see what was cancelled.
   */
  CANCELLED
}
