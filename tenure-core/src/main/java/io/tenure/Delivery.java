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
}
