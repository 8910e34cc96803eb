package io.tenure;

import java.util.List;

/**
 * Handles several messages of a queue in one call (SPEC §6.5), e.g. to write them in one database
 * transaction. Returning normally marks them all done; throwing fails them all, each retried or
 * dead-lettered by its own attempt count.
 */
@FunctionalInterface
public interface BatchHandler {
  /**
   * Handles the batch (1 to the consumer's batch size messages, oldest first); runs on a virtual
   * thread.
   */
  void handle(List<Delivery> deliveries) throws Exception;
}
