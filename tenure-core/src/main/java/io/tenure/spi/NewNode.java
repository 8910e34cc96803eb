package io.tenure.spi;

import java.time.Duration;
import java.util.Set;

/**
 * A node about to join.
 *
 * @param nodeId the incarnation id, a UUID string
 * @param name the configured name
 * @param address the admin endpoint, or empty
 * @param capabilities what it can run
 * @param selfFenceAfter how long after a missed heartbeat it stops its work on its own
 */
public record NewNode(
    String nodeId, String name, String address, Set<String> capabilities, Duration selfFenceAfter) {
  /** Copies the capabilities. */
  public NewNode {
    capabilities = Set.copyOf(capabilities);
  }
}
