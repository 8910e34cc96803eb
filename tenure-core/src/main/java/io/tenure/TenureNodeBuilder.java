package io.tenure;

import io.tenure.internal.cluster.NodeAssembly;
import io.tenure.internal.queue.ConsumerRegistry;
import io.tenure.internal.queue.ExclusiveQueues;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settings of a {@link TenureNode} with defaults, from {@link TenureNode#builder(Store)}. Each
 * setter checks its argument, {@link #build()} checks the rules that tie them together and throws,
 * naming both values, instead of adjusting anything. Every duration is at most {@link
 * Limits#MAX_DURATION} (the event max age {@link Limits#MAX_RETENTION}): beyond that a database
 * clock plus it, or a deadline in nanoseconds, would overflow while the node runs instead of
 * failing here. The defaults are the {@code DEFAULT_...} constants of the settings records ({@link
 * HeartbeatSettings}, {@link LeadershipSettings}, {@link CleanupSettings}, {@link AgentSettings},
 * {@link QueueSettings}).
 */
public final class TenureNodeBuilder {
  private final Store store;
  private String name = "node";
  private String address = "";
  private final Set<String> capabilities = new LinkedHashSet<>();
  private Duration heartbeatInterval = HeartbeatSettings.DEFAULT_INTERVAL;
  private Duration selfFenceAfter = HeartbeatSettings.DEFAULT_SELF_FENCE_AFTER;
  private Duration staleAfter = HeartbeatSettings.DEFAULT_STALE_AFTER;
  private Duration leaseTtl = LeadershipSettings.DEFAULT_LEASE_TTL;
  private Duration renewInterval = LeadershipSettings.DEFAULT_RENEW_INTERVAL;
  private Duration fenceAfter = LeadershipSettings.DEFAULT_FENCE_AFTER;
  private boolean promotable = true;
  private Duration acquireDelay = Duration.ZERO;
  private CleanupSettings cleanup = CleanupSettings.DEFAULTS;
  private Duration agentSweepInterval = AgentSettings.DEFAULT_SWEEP_INTERVAL;
  private int maxMovesPerPass = AgentSettings.DEFAULT_MAX_MOVES_PER_PASS;
  private int maxReconciliationsPerTick = AgentSettings.DEFAULT_MAX_RECONCILIATIONS_PER_TICK;
  private Duration agentStartTimeout = AgentSettings.DEFAULT_START_TIMEOUT;
  private Duration agentStopTimeout = AgentSettings.DEFAULT_STOP_TIMEOUT;
  private Duration initialPlacementQuiet = AgentSettings.DEFAULT_INITIAL_PLACEMENT_QUIET;
  private Duration initialPlacementMaxDelay = AgentSettings.DEFAULT_INITIAL_PLACEMENT_MAX_DELAY;
  private QueueSettings queues = QueueSettings.DEFAULTS;
  private final Map<String, AgentFamily> families = new LinkedHashMap<>();
  private final ConsumerRegistry consumers = new ConsumerRegistry();
  private Ticker ticker = Ticker.system();
  private final List<NodeListener> listeners = new ArrayList<>();

  TenureNodeBuilder(Store store) {
    this.store = store;
  }

  /**
   * @param name 1 to 128 of {@code [A-Za-z0-9._-]}, starting with a letter or digit; unique among
   *     the running nodes of one process and store
   * @throws IllegalArgumentException if malformed
   */
  public TenureNodeBuilder name(String name) {
    this.name = NodeSettings.checkName(name);
    return this;
  }

  /**
   * @param address the admin endpoint other nodes and operators reach it at, at most 255
   *     characters, no whitespace
   * @throws IllegalArgumentException if malformed
   */
  public TenureNodeBuilder address(String address) {
    this.address = NodeSettings.checkAddress(address);
    return this;
  }

  /**
   * @param capability what this node can run, e.g. an agent family: 1 to 64 of {@code
   *     [A-Za-z0-9._:/-]}, no whitespace or commas
   * @throws IllegalArgumentException if malformed
   */
  public TenureNodeBuilder capability(String capability) {
    capabilities.add(NodeSettings.checkCapability(capability));
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder heartbeatInterval(Duration interval) {
    this.heartbeatInterval = SettingChecks.positive("heartbeatInterval", interval);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder selfFenceAfter(Duration after) {
    this.selfFenceAfter = SettingChecks.positive("selfFenceAfter", after);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder staleAfter(Duration after) {
    this.staleAfter = SettingChecks.positive("staleAfter", after);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder leaseTtl(Duration ttl) {
    this.leaseTtl = SettingChecks.positive("leaseTtl", ttl);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder renewInterval(Duration interval) {
    this.renewInterval = SettingChecks.positive("renewInterval", interval);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder fenceAfter(Duration after) {
    this.fenceAfter = SettingChecks.positive("fenceAfter", after);
    return this;
  }

  /** Whether this node may lead (default true). */
  public TenureNodeBuilder promotable(boolean promotable) {
    this.promotable = promotable;
    return this;
  }

  /**
   * @param delay how long to wait after seeing the lease free before trying to take it, so that
   *     preferred nodes (delay 0) win; 0 or more
   * @throws IllegalArgumentException if negative or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder acquireDelay(Duration delay) {
    this.acquireDelay = Limits.checkNotNegative("acquireDelay", delay, Limits.MAX_DURATION);
    return this;
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder defunctAfter(Duration after) {
    cleanup = cleanup.withDefunctAfter(after);
    return this;
  }

  /**
   * @param batchSize rows per cleanup transaction, 1 to 1000
   * @param maxPerTick rows examined per leader tick, at least {@code batchSize}, at most 10,000
   * @throws IllegalArgumentException if out of range
   */
  public TenureNodeBuilder cleanup(int batchSize, int maxPerTick) {
    cleanup = cleanup.withBatches(batchSize, maxPerTick);
    return this;
  }

  /**
   * @param keep newest history entries kept, 1 to 1,000,000
   * @param maxAge oldest entry kept, positive, at most {@link Limits#MAX_RETENTION}
   * @throws IllegalArgumentException if out of range
   */
  public TenureNodeBuilder eventRetention(int keep, Duration maxAge) {
    cleanup = cleanup.withEvents(keep, maxAge);
    return this;
  }

  /**
   * Registers an agent family; its scheme becomes one of this node's capabilities.
   *
   * @throws IllegalArgumentException if null, or a family with the same scheme is registered
   */
  public TenureNodeBuilder agentFamily(AgentFamily family) {
    if (family == null) {
      throw new IllegalArgumentException("agent family must not be null");
    }
    String scheme = new AgentUri(family.scheme(), "x").scheme();
    if (families.putIfAbsent(scheme, family) != null) {
      throw new IllegalArgumentException(
          "an agent family for scheme '" + scheme + "' is already registered");
    }
    return capability(scheme);
  }

  /**
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder agentSweepInterval(Duration interval) {
    this.agentSweepInterval = SettingChecks.positive("agentSweepInterval", interval);
    return this;
  }

  /**
   * @param movesPerPass rebalancing moves per leader pass, 0 or less for no cap
   * @param reconciliationsPerTick actions per node sweep, 0 or less for no cap
   */
  public TenureNodeBuilder agentCaps(int movesPerPass, int reconciliationsPerTick) {
    this.maxMovesPerPass = movesPerPass;
    this.maxReconciliationsPerTick = reconciliationsPerTick;
    return this;
  }

  /**
   * @throws IllegalArgumentException if either is not positive or longer than {@link
   *     Limits#MAX_DURATION}
   */
  public TenureNodeBuilder agentTimeouts(Duration start, Duration stop) {
    this.agentStartTimeout = SettingChecks.positive("agent start timeout", start);
    this.agentStopTimeout = SettingChecks.positive("agent stop timeout", stop);
    return this;
  }

  /**
   * How the leader places agents that have no row yet, as at a cold start (like Kafka's {@code
   * group.initial.rebalance.delay.ms}): it waits until no node is joining and the newest node
   * joined at least {@code quiet} ago by the database clock, but never longer than {@code max} from
   * the first pass that held them back. Nodes starting together then get their agents evenly at
   * once, instead of the first nodes up claiming them all and handing them on at {@code
   * maxMovesPerPass} a pass. Agents whose rows exist (a dead node's, a hand-off's) are never held
   * back. Default 500 ms and 5 s.
   *
   * @param quiet how long membership must have been still; zero places at once
   * @param max the longest agents are held back; at least {@code quiet}
   * @throws IllegalArgumentException naming the setting if either is null, negative or longer than
   *     {@link Limits#MAX_DURATION}, or {@code max < quiet}
   */
  public TenureNodeBuilder initialPlacementDelay(Duration quiet, Duration max) {
    AgentSettings.checkInitialPlacement(quiet, max);
    this.initialPlacementQuiet = quiet;
    this.initialPlacementMaxDelay = max;
    return this;
  }

  /**
   * @param ticker the monotonic clock for local deadlines; tests pass a settable one
   * @throws IllegalArgumentException if null
   */
  public TenureNodeBuilder ticker(Ticker ticker) {
    if (ticker == null) {
      throw new IllegalArgumentException("ticker must not be null");
    }
    this.ticker = ticker;
    return this;
  }

  /**
   * Consumes a queue on this node: up to {@code concurrency} handlers at once, each on a virtual
   * thread (SPEC §6.5).
   *
   * @param concurrency 1 to 1000
   * @throws IllegalArgumentException if an argument is null or out of range, or this queue already
   *     has a consumer on this node
   */
  public TenureNodeBuilder consumer(Queue queue, int concurrency, MessageHandler handler) {
    consumers.single(queue, concurrency, handler);
    return this;
  }

  /**
   * Consumes a queue in batches: up to {@code concurrency} handler calls at once, each with 1 to
   * {@code batchSize} messages (SPEC §6.5). A call that returns marks its messages done; one that
   * throws fails them all, each retried or dead-lettered by its own attempts.
   *
   * @param batchSize 1 to 1000
   * @throws IllegalArgumentException if an argument is null or out of range, or this queue already
   *     has a consumer on this node
   */
  public TenureNodeBuilder batchConsumer(
      Queue queue, int concurrency, int batchSize, BatchHandler handler) {
    consumers.batch(queue, concurrency, batchSize, handler);
    return this;
  }

  /**
   * Consumes an exclusive queue (SPEC §6.9): exactly one node at a time, one message at a time, in
   * strict enqueue order, by running the agent {@code queue://NAME} (placed by the leader like any
   * agent). Every claim and resolve carries the agent's ownership epoch, so a node that lost the
   * agent cannot take or finish its successor's work. Register the same exclusive queues on every
   * node that may run them.
   *
   * @throws IllegalArgumentException if an argument is null or the queue already has a consumer on
   *     this node
   */
  public TenureNodeBuilder exclusiveConsumer(Queue queue, MessageHandler handler) {
    consumers.exclusive(queue, handler);
    return this;
  }

  /**
   * How often this node's reclaim sweep re-pends messages whose lease expired, and how many per
   * sweep (SPEC §6.4). Nothing stays stranded longer than the lease plus this interval.
   *
   * @throws IllegalArgumentException if the interval is not positive or longer than {@link
   *     Limits#MAX_DURATION}, or the cap below 1
   */
  public TenureNodeBuilder queueReclaim(Duration interval, int perTick) {
    queues = queues.withReclaim(interval, perTick);
    return this;
  }

  /**
   * How long a closing node lets its running queue handlers finish before it abandons them (their
   * leases then lapse and other nodes reclaim the messages); default 10 s.
   *
   * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
   */
  public TenureNodeBuilder drainDeadline(Duration deadline) {
    queues = queues.withDrainDeadline(deadline);
    return this;
  }

  /**
   * How long a shared consumer waits before it claims again from an empty queue: {@code min} at
   * first, doubling up to {@code max} while it stays empty; default 20 ms and 1 s. A wake-up cuts a
   * wait short: a lost one costs at most {@code max}.
   *
   * @throws IllegalArgumentException if either is not positive or longer than {@link
   *     Limits#MAX_DURATION}, or {@code max < min}
   */
  public TenureNodeBuilder queuePolling(Duration min, Duration max) {
    queues = queues.withPolling(min, max);
    return this;
  }

  /**
   * Whether this node takes wake-ups (docs/QUEUE.md, "Wake-ups"; default on, {@code 127.0.0.1}): a
   * UDP socket on {@code host}, advertised as the capability {@code wake:udp:HOST:PORT}, through
   * which enqueuers tell its consumers to claim now. Other hosts need a host they can reach.
   *
   * @param host an IP address or host name of this machine, at most 40 characters
   * @throws IllegalArgumentException if the host is malformed
   */
  public TenureNodeBuilder wakeups(boolean enabled, String host) {
    queues = queues.withWakeups(enabled, host);
    return this;
  }

  /**
   * @throws IllegalArgumentException if null
   */
  public TenureNodeBuilder listener(NodeListener listener) {
    if (listener == null) {
      throw new IllegalArgumentException("listener must not be null");
    }
    listeners.add(listener);
    return this;
  }

  /**
   * Checks the settings together and returns an unstarted node.
   *
   * @throws IllegalArgumentException naming both values if {@code heartbeatInterval <
   *     selfFenceAfter < staleAfter} or {@code renewInterval + statementTimeout < fenceAfter <
   *     leaseTtl} does not hold (statementTimeout is the store's), or an agent family takes the
   *     scheme reserved for exclusive queues
   */
  public TenureNode build() {
    HeartbeatSettings heartbeat =
        new HeartbeatSettings(heartbeatInterval, selfFenceAfter, staleAfter);
    LeadershipSettings leadership =
        new LeadershipSettings(
            leaseTtl,
            renewInterval,
            fenceAfter,
            store.describe().statementTimeout(),
            promotable,
            acquireDelay);
    Map<String, AgentFamily> allFamilies =
        ExclusiveQueues.withFamilies(
            families, consumers.exclusive(), store.queues(), queues.drainDeadline());
    Set<String> allCapabilities = new LinkedHashSet<>(capabilities);
    allCapabilities.addAll(allFamilies.keySet());
    AgentSettings agents =
        new AgentSettings(
            agentSweepInterval,
            maxMovesPerPass,
            maxReconciliationsPerTick,
            agentStartTimeout,
            agentStopTimeout,
            initialPlacementQuiet,
            initialPlacementMaxDelay);
    NodeSettings settings =
        new NodeSettings(
            name, address, allCapabilities, heartbeat, leadership, cleanup, agents, queues);
    // The wake-up socket is bound last, and closed again if the node is refused after it.
    return NodeAssembly.build(store, settings, ticker, listeners, allFamilies, consumers.shared());
  }
}
