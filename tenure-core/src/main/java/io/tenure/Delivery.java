package io.tenure;

import java.time.Duration;

/** A claimed message as its handler sees it. */
public interface Delivery {
  /**
   * @return the message as claimed (status {@code INFLIGHT}, this claim's token)
   */
  QueueMessage message();

  /**
   * @return the payload bytes
   */
  default byte[] payload() {
    return message().payload().clone();
  }

  /**
   * @return the payload as UTF-8 text
   */
  default String text() {
    return new String(message().payload(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * @return which attempt this is, 1 for the first
   */
  default int attempt() {
    return message().attempts();
  }

  /**
   * Extends this claim to {@code lease} from now. The consumer already extends the leases of
   * handlers that run long; call this to extend further.
   *
   * @return false if the claim was lost (the message was reclaimed): the work may be done twice
   */
  boolean extendLease(Duration lease);

  /**
   * Whether this delivery's work no longer counts (SPEC §12.3): an operator cancelled the message,
   * or its claim was taken back (its lease lapsed and another node may run it). The consumer checks
   * about every 400 ms while the handler runs; a handler that goes on anyway is never interrupted,
   * but its outcome changes nothing (a lost claim). Long handlers should look at it between steps.
   *
   * @return true once the consumer learned that the claim no longer holds
   */
  default boolean cancelled() {
    return false;
  }

  /**
   * Runs {@code callback} once when {@link #cancelled()} becomes true (at once if it is), on a
   * thread of its own: e.g. to abort an HTTP call the handler is blocked in.
   */
  default void onCancel(Runnable callback) {}
}
