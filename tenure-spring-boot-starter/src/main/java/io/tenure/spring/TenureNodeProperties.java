package io.tenure.spring;

import io.tenure.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code tenure.node.*} properties: the settings of {@link io.tenure.TenureNodeBuilder}, with
 * its defaults. A setter refuses a value out of range at once, naming the property; the rules
 * between them ({@code heartbeat-interval < self-fence-after < stale-after}, {@code renew-interval
 * + statement timeout < fence-after < lease-ttl}) are checked when the context starts, by building
 * the node.
 */
public class TenureNodeProperties {
  /**
   * Whether this application runs a node: joins the cluster, consumes the queues of its handlers,
   * runs its agents and, when it leads, fires the schedules. Off: Tenure is there to enqueue and
   * read, nothing runs.
   */
  private boolean enabled = true;

  /**
   * The node's name, 1 to 128 of [A-Za-z0-9._-] starting with a letter or digit. Default:
   * spring.application.name, else "node".
   */
  private @Nullable String name;

  /**
   * The address other nodes and operators reach this node's admin endpoint at, at most 255
   * characters, no whitespace. Default: the admin server's URL when tenure.admin.enabled, else
   * none.
   */
  private String address = "";

  /**
   * What this node can run besides its agent families' schemes, each 1 to 64 of [A-Za-z0-9._:/-].
   */
  private List<String> capabilities = new ArrayList<>();

  /** Whether this node may become the leader. */
  private boolean promotable = true;

  /**
   * How long to wait after seeing the leader lease free before trying to take it, so that nodes
   * with no delay win.
   */
  private Duration acquireDelay = Duration.ZERO;

  /** How often the node heart-beats. Must be less than self-fence-after. */
  private Duration heartbeatInterval = Duration.ofSeconds(1);

  /**
   * How long without a successful heartbeat before the node stops its own work. Must be less than
   * stale-after.
   */
  private Duration selfFenceAfter = Duration.ofSeconds(3);

  /** How old a node's heartbeat is before the leader declares it dead. */
  private Duration staleAfter = Duration.ofSeconds(5);

  /** How long the leader lease lasts without a renewal. */
  private Duration leaseTtl = Duration.ofSeconds(5);

  /**
   * How often the leader renews its lease. Plus the store's statement timeout, must be less than
   * fence-after.
   */
  private Duration renewInterval = Duration.ofSeconds(1);

  /**
   * How long after its last renewal was sent the leader still trusts its lease. Must be less than
   * lease-ttl.
   */
  private Duration fenceAfter = Duration.ofSeconds(4);

  /** How long the rows of dead or departed nodes are kept before the leader deletes them. */
  private Duration defunctAfter = Duration.ofMinutes(10);

  /** Rows per cleanup transaction of the leader, 1 to 1000. */
  private int cleanupBatchSize = 50;

  /** Rows the leader examines per tick, at least cleanup-batch-size, at most 10,000. */
  private int cleanupMaxPerTick = 200;

  /** Newest cluster history entries kept, 1 to 1,000,000. */
  private int eventsToKeep = 10000;

  /** Oldest cluster history entry kept. */
  private Duration eventMaxAge = Duration.ofDays(7);

  /** How often the node reconciles the agents it runs with the assignment table. */
  private Duration agentSweepInterval = Duration.ofSeconds(1);

  /** Rebalancing moves per leader pass; 0 or less for no cap. */
  private int maxMovesPerPass = 20;

  /** Agent starts and stops per node sweep; 0 or less for no cap. */
  private int maxReconciliationsPerTick = 50;

  /** How long an agent's start may take before the node gives up on it. */
  private Duration agentStartTimeout = Duration.ofSeconds(10);

  /** How long an agent's stop may take before the node abandons it. */
  private Duration agentStopTimeout = Duration.ofSeconds(2);

  /**
   * At a cold start, how long membership must have been still before the leader places agents that
   * have no row yet; 0 places them at once.
   */
  private Duration initialPlacementQuiet = Duration.ofMillis(500);

  /**
   * The longest the leader holds back agents that have no row yet; at least initial-placement-
   * quiet.
   */
  private Duration initialPlacementMaxDelay = Duration.ofSeconds(5);

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public @Nullable String getName() {
    return name;
  }

  public void setName(@Nullable String name) {
    this.name = PropertyChecks.notBlank("tenure.node.name", name);
  }

  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  public List<String> getCapabilities() {
    return capabilities;
  }

  public void setCapabilities(List<String> capabilities) {
    this.capabilities = new ArrayList<>(capabilities);
  }

  public boolean isPromotable() {
    return promotable;
  }

  public void setPromotable(boolean promotable) {
    this.promotable = promotable;
  }

  public Duration getAcquireDelay() {
    return acquireDelay;
  }

  public void setAcquireDelay(Duration acquireDelay) {
    this.acquireDelay =
        PropertyChecks.notNegative("tenure.node.acquire-delay", acquireDelay, Limits.MAX_DURATION);
  }

  public Duration getHeartbeatInterval() {
    return heartbeatInterval;
  }

  public void setHeartbeatInterval(Duration heartbeatInterval) {
    this.heartbeatInterval =
        PropertyChecks.positive("tenure.node.heartbeat-interval", heartbeatInterval);
  }

  public Duration getSelfFenceAfter() {
    return selfFenceAfter;
  }

  public void setSelfFenceAfter(Duration selfFenceAfter) {
    this.selfFenceAfter = PropertyChecks.positive("tenure.node.self-fence-after", selfFenceAfter);
  }

  public Duration getStaleAfter() {
    return staleAfter;
  }

  public void setStaleAfter(Duration staleAfter) {
    this.staleAfter = PropertyChecks.positive("tenure.node.stale-after", staleAfter);
  }

  public Duration getLeaseTtl() {
    return leaseTtl;
  }

  public void setLeaseTtl(Duration leaseTtl) {
    this.leaseTtl = PropertyChecks.positive("tenure.node.lease-ttl", leaseTtl);
  }

  public Duration getRenewInterval() {
    return renewInterval;
  }

  public void setRenewInterval(Duration renewInterval) {
    this.renewInterval = PropertyChecks.positive("tenure.node.renew-interval", renewInterval);
  }

  public Duration getFenceAfter() {
    return fenceAfter;
  }

  public void setFenceAfter(Duration fenceAfter) {
    this.fenceAfter = PropertyChecks.positive("tenure.node.fence-after", fenceAfter);
  }

  public Duration getDefunctAfter() {
    return defunctAfter;
  }

  public void setDefunctAfter(Duration defunctAfter) {
    this.defunctAfter = PropertyChecks.positive("tenure.node.defunct-after", defunctAfter);
  }

  public int getCleanupBatchSize() {
    return cleanupBatchSize;
  }

  public void setCleanupBatchSize(int cleanupBatchSize) {
    this.cleanupBatchSize =
        PropertyChecks.between("tenure.node.cleanup-batch-size", cleanupBatchSize, 1, 1000);
  }

  public int getCleanupMaxPerTick() {
    return cleanupMaxPerTick;
  }

  public void setCleanupMaxPerTick(int cleanupMaxPerTick) {
    this.cleanupMaxPerTick =
        PropertyChecks.between("tenure.node.cleanup-max-per-tick", cleanupMaxPerTick, 1, 10_000);
  }

  public int getEventsToKeep() {
    return eventsToKeep;
  }

  public void setEventsToKeep(int eventsToKeep) {
    this.eventsToKeep =
        PropertyChecks.between("tenure.node.events-to-keep", eventsToKeep, 1, 1_000_000);
  }

  public Duration getEventMaxAge() {
    return eventMaxAge;
  }

  public void setEventMaxAge(Duration eventMaxAge) {
    this.eventMaxAge =
        Limits.checkPositive("tenure.node.event-max-age", eventMaxAge, Limits.MAX_RETENTION);
  }

  public Duration getAgentSweepInterval() {
    return agentSweepInterval;
  }

  public void setAgentSweepInterval(Duration agentSweepInterval) {
    this.agentSweepInterval =
        PropertyChecks.positive("tenure.node.agent-sweep-interval", agentSweepInterval);
  }

  public int getMaxMovesPerPass() {
    return maxMovesPerPass;
  }

  public void setMaxMovesPerPass(int maxMovesPerPass) {
    this.maxMovesPerPass = maxMovesPerPass;
  }

  public int getMaxReconciliationsPerTick() {
    return maxReconciliationsPerTick;
  }

  public void setMaxReconciliationsPerTick(int maxReconciliationsPerTick) {
    this.maxReconciliationsPerTick = maxReconciliationsPerTick;
  }

  public Duration getAgentStartTimeout() {
    return agentStartTimeout;
  }

  public void setAgentStartTimeout(Duration agentStartTimeout) {
    this.agentStartTimeout =
        PropertyChecks.positive("tenure.node.agent-start-timeout", agentStartTimeout);
  }

  public Duration getAgentStopTimeout() {
    return agentStopTimeout;
  }

  public void setAgentStopTimeout(Duration agentStopTimeout) {
    this.agentStopTimeout =
        PropertyChecks.positive("tenure.node.agent-stop-timeout", agentStopTimeout);
  }

  public Duration getInitialPlacementQuiet() {
    return initialPlacementQuiet;
  }

  public void setInitialPlacementQuiet(Duration initialPlacementQuiet) {
    this.initialPlacementQuiet =
        PropertyChecks.notNegative(
            "tenure.node.initial-placement-quiet", initialPlacementQuiet, Limits.MAX_DURATION);
  }

  public Duration getInitialPlacementMaxDelay() {
    return initialPlacementMaxDelay;
  }

  public void setInitialPlacementMaxDelay(Duration initialPlacementMaxDelay) {
    this.initialPlacementMaxDelay =
        PropertyChecks.notNegative(
            "tenure.node.initial-placement-max-delay",
            initialPlacementMaxDelay,
            Limits.MAX_DURATION);
  }
}
