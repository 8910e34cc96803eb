package io.tenure;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * One node row, as read from the store.
 *
 * @param nodeId the incarnation id: a new UUID for every process start
 * @param name the node's configured name (several incarnations may share it over time)
 * @param address where its admin endpoint listens, or empty
 * @param capabilities what it can run, e.g. agent families
 * @param status its lifecycle state
 * @param startedAt when it joined, by the database clock
 * @param heartbeatAt its last heartbeat, by the database clock
 * @param selfFenceAfter how long after its last heartbeat it may still run work: its self-fence
 *     deadline plus, for a node that runs agents, one sweep and the agents' stop deadline
 * @param rowVersion bumped by every write to the row; conditional deletes compare it
 */
public record NodeInfo(
    String nodeId,
    String name,
    String address,
    Set<String> capabilities,
    NodeStatus status,
    Instant startedAt,
    Instant heartbeatAt,
    Duration selfFenceAfter,
    long rowVersion) {
  /** Copies the capabilities. */
  public NodeInfo {
    capabilities = Set.copyOf(capabilities);
  }
}
