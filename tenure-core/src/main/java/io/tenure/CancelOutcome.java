package io.tenure;

/** What cancelling one message did (SPEC §12.3). */
public enum CancelOutcome {
  /** It was pending: it is {@link MessageStatus#CANCELLED} and no node will claim it. */
  CANCELLED,
  /**
   * It was in flight: it is {@link MessageStatus#CANCELLED}, its claim no longer holds, and its
   * owner is told (the handler's {@link Delivery#cancelled()}); a done from the owner is a lost
   * claim that changes nothing.
   */
  CANCELLED_RUNNING,
  /** It had already finished (done, dead or cancelled): nothing changed. */
  FINISHED,
  /** No such message (never stored, or deleted): nothing changed. */
  NOT_FOUND;

  /**
   * @return true if this call cancelled the message
   */
  public boolean cancelled() {
    return this == CANCELLED || this == CANCELLED_RUNNING;
  }
}
