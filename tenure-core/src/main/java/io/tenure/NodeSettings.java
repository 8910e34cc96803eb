package io.tenure;

import java.time.Duration;
import java.util.Set;

/**
 * The validated, frozen settings of a {@link TenureNode}; see {@link TenureNode.Builder} for each.
 *
 * @param name the node's name
 * @param address its admin endpoint, or empty
 * @param capabilities what it can run
 * @param heartbeatInterval how often it heart-beats
 * @param selfFenceAfter how long without a successful heartbeat before it stops its work
 * @param staleAfter how old a heartbeat is before the leader declares the node dead
 * @param leaseTtl the leader lease's time to live
 * @param renewInterval how often the leader renews (and candidates try to acquire)
 * @param fenceAfter how long without a successful renewal before the leader demotes itself
 * @param statementTimeout the store's bound on one heartbeat or lease statement
 * @param promotable whether this node may lead
 * @param acquireDelay how long it waits after seeing the lease free before it tries to take it
 * @param defunctAfter how long a non-active row stays before the leader deletes it
 * @param cleanupBatchSize rows deleted per cleanup transaction
 * @param maxCleanupPerTick rows examined for cleanup per leader tick
 * @param eventsToKeep newest history entries kept
 * @param eventMaxAge oldest history entry kept
 * @param agentSweepInterval how often the node reconciles its agents with the assignment rows
 * @param maxMovesPerPass rebalancing moves per leader pass (0 or less: no cap)
 * @param maxReconciliationsPerTick actions per node sweep (0 or less: no cap)
 * @param agentStartTimeout how long an agent's start may take before it is abandoned
 * @param agentStopTimeout how long an agent's stop may take before it is abandoned
 * @param initialPlacementQuiet how long membership must have been still before the leader places
 *     agents that have no row yet (zero: at once)
 * @param initialPlacementMaxDelay the longest the leader holds such agents back
 */
public record NodeSettings(
    String name,
    String address,
    Set<String> capabilities,
    Duration heartbeatInterval,
    Duration selfFenceAfter,
    Duration staleAfter,
    Duration leaseTtl,
    Duration renewInterval,
    Duration fenceAfter,
    Duration statementTimeout,
    boolean promotable,
    Duration acquireDelay,
    Duration defunctAfter,
    int cleanupBatchSize,
    int maxCleanupPerTick,
    int eventsToKeep,
    Duration eventMaxAge,
    Duration agentSweepInterval,
    int maxMovesPerPass,
    int maxReconciliationsPerTick,
    Duration agentStartTimeout,
    Duration agentStopTimeout,
    Duration initialPlacementQuiet,
    Duration initialPlacementMaxDelay) {
  /** Copies the capabilities. */
  public NodeSettings {
    capabilities = Set.copyOf(capabilities);
  }
}
