package io.tenure;

import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The validated, frozen settings of a {@link TenureNode}, one record per concern; see {@link
 * TenureNodeBuilder} for each setting. The flat accessors ({@link #leaseTtl()} and the like) read
 * the same values under the names the builder and the {@code tenure node} options use.
 *
 * @param name the node's name
 * @param address its admin endpoint, or empty
 * @param capabilities what it can run
 * @param heartbeat how it keeps its membership
 * @param leadership how it competes for and keeps the leader lease
 * @param cleanup what the leader deletes, and how much at a time
 * @param agents how it runs agents and the leader places them
 * @param queues its queue reclaim sweep and drain deadline
 */
public record NodeSettings(
    String name,
    String address,
    Set<String> capabilities,
    HeartbeatSettings heartbeat,
    LeadershipSettings leadership,
    CleanupSettings cleanup,
    AgentSettings agents,
    QueueSettings queues) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern CAPABILITY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}");

  /**
   * Checks the name, address and capabilities and copies the capabilities.
   *
   * @throws IllegalArgumentException if one is malformed or a concern is null
   */
  public NodeSettings {
    checkName(name);
    checkAddress(address);
    if (capabilities == null) {
      throw new IllegalArgumentException("capabilities must not be null");
    }
    capabilities.forEach(NodeSettings::checkCapability);
    capabilities = Set.copyOf(capabilities);
    if (heartbeat == null
        || leadership == null
        || cleanup == null
        || agents == null
        || queues == null) {
      throw new IllegalArgumentException("node settings must not be null");
    }
  }

  static String checkName(String name) {
    if (name != null) {
      Limits.checkWellFormed("node name", name);
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "node name must be 1 to 128 of [A-Za-z0-9._-] starting with a letter or digit, got '"
              + name
              + "'");
    }
    return name;
  }

  static String checkAddress(String address) {
    if (address != null) {
      Limits.checkWellFormed("node address", address);
    }
    if (address == null
        || address.length() > 255
        || address.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException(
          "node address must be at most 255 characters without whitespace, got '" + address + "'");
    }
    return address;
  }

  static String checkCapability(String capability) {
    if (capability != null) {
      Limits.checkWellFormed("capability", capability);
    }
    if (capability == null || !CAPABILITY.matcher(capability).matches()) {
      throw new IllegalArgumentException(
          "capability must be 1 to 64 of [A-Za-z0-9._:/-] starting with a letter or digit (no"
              + " whitespace or commas), got '"
              + capability
              + "'");
    }
    return capability;
  }

  /**
   * @return how often it heart-beats
   */
  public Duration heartbeatInterval() {
    return heartbeat.interval();
  }

  /**
   * @return how long without a successful heartbeat before it stops its work
   */
  public Duration selfFenceAfter() {
    return heartbeat.selfFenceAfter();
  }

  /**
   * @return how old a heartbeat is before the leader declares the node dead
   */
  public Duration staleAfter() {
    return heartbeat.staleAfter();
  }

  /**
   * @return the leader lease's time to live
   */
  public Duration leaseTtl() {
    return leadership.leaseTtl();
  }

  /**
   * @return how often the leader renews (and candidates try to acquire)
   */
  public Duration renewInterval() {
    return leadership.renewInterval();
  }

  /**
   * @return how long without a successful renewal before the leader demotes itself
   */
  public Duration fenceAfter() {
    return leadership.fenceAfter();
  }

  /**
   * @return the store's bound on one heartbeat or lease statement
   */
  public Duration statementTimeout() {
    return leadership.statementTimeout();
  }

  /**
   * @return whether this node may lead
   */
  public boolean promotable() {
    return leadership.promotable();
  }

  /**
   * @return how long it waits after seeing the lease free before it tries to take it
   */
  public Duration acquireDelay() {
    return leadership.acquireDelay();
  }

  /**
   * @return how long a non-active row stays before the leader deletes it
   */
  public Duration defunctAfter() {
    return cleanup.defunctAfter();
  }

  /**
   * @return rows deleted per cleanup transaction
   */
  public int cleanupBatchSize() {
    return cleanup.batchSize();
  }

  /**
   * @return rows examined for cleanup per leader tick
   */
  public int maxCleanupPerTick() {
    return cleanup.maxPerTick();
  }

  /**
   * @return newest history entries kept
   */
  public int eventsToKeep() {
    return cleanup.eventsToKeep();
  }

  /**
   * @return oldest history entry kept
   */
  public Duration eventMaxAge() {
    return cleanup.eventMaxAge();
  }

  /**
   * @return how often the node reconciles its agents with the assignment rows
   */
  public Duration agentSweepInterval() {
    return agents.sweepInterval();
  }

  /**
   * @return rebalancing moves per leader pass (0 or less: no cap)
   */
  public int maxMovesPerPass() {
    return agents.maxMovesPerPass();
  }

  /**
   * @return actions per node sweep (0 or less: no cap)
   */
  public int maxReconciliationsPerTick() {
    return agents.maxReconciliationsPerTick();
  }

  /**
   * @return how long an agent's start may take before it is abandoned
   */
  public Duration agentStartTimeout() {
    return agents.startTimeout();
  }

  /**
   * @return how long an agent's stop may take before it is abandoned
   */
  public Duration agentStopTimeout() {
    return agents.stopTimeout();
  }

  /**
   * @return how long membership must have been still before the leader places agents that have no
   *     row yet
   */
  public Duration initialPlacementQuiet() {
    return agents.initialPlacementQuiet();
  }

  /**
   * @return the longest the leader holds such agents back
   */
  public Duration initialPlacementMaxDelay() {
    return agents.initialPlacementMaxDelay();
  }
}
