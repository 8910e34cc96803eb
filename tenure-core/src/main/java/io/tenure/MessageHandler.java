package io.tenure;

/**
 * Handles one message of a queue (SPEC §6.5). Returning normally marks it done; throwing retries it
 * after the policy's backoff (or makes it a dead letter when out of attempts, or at once for a
 * non-retryable exception type). Delivery is at least once: a handler must be idempotent, e.g. by
 * recording the message's id with its own writes.
 */
@FunctionalInterface
public interface MessageHandler {
  /** Handles the message; runs on a virtual thread. */
  void handle(Delivery delivery) throws Exception;
}
