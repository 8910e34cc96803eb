package io.tenure;

import io.tenure.internal.cluster.DefaultTenureNode;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One member of a Tenure cluster (SPEC §3, §4): it joins, heart-beats on its own thread, competes
 * for the leader lease, and, while leader, declares stale nodes dead and cleans up defunct rows,
 * each write fenced by its epoch.
 *
 * <p>Build with {@link #builder(Store)}, then {@link #start()}. {@link #close()} leaves gracefully:
 * {@code LEAVING}, step down, delete its row.
 */
public interface TenureNode extends AutoCloseable {
  /**
   * @return the current incarnation id; changes when the node rejoins after an ejection
   */
  String nodeId();

  /**
   * @return the settings the node runs with
   */
  NodeSettings settings();

  /**
   * Joins the cluster and starts heart-beating and the election. Returns once the node is {@code
   * ACTIVE}.
   *
   * @throws IllegalStateException if already started or closed
   * @throws StoreException if the store failed
   */
  void start();

  /**
   * @return true while this node holds the lease and trusts it: its last successful renewal started
   *     less than {@code fenceAfter} ago on its monotonic clock
   */
  boolean isLeader();

  /**
   * @return the fence to put on leader-only writes, while leader
   */
  Optional<LeaderFence> leaderFence();

  /**
   * @return true while no heartbeat has succeeded for {@code selfFenceAfter}
   */
  boolean isSelfFenced();

  /**
   * @return the agents running on this node now
   */
  java.util.Set<AgentUri> runningAgents();

  /**
   * Pauses an agent: it stops wherever it runs before this call returns, and runs nowhere until
   * {@link #resume}.
   *
   * @throws IllegalArgumentException if no assignment row exists for it (nothing written)
   * @throws TenureException if its owner did not stop it within the stop deadline plus two sweeps
   */
  void pause(AgentUri uri);

  /**
   * Resumes a paused agent; the leader places it again on its next pass.
   *
   * @throws IllegalArgumentException if no assignment row exists for it
   */
  void resume(AgentUri uri);

  /**
   * Pins an agent to the node of that name (it moves there), or unpins it with null.
   *
   * @throws IllegalArgumentException if no row exists, or no ACTIVE node of that name can run the
   *     agent's scheme (nothing written)
   */
  void pin(AgentUri uri, @org.jspecify.annotations.Nullable String nodeName);

  /**
   * Runs a leader pass now, if this node leads.
   *
   * @return true if it ran
   */
  boolean rebalance();

  /**
   * @return the numbers of this node's queue consumers, one per queue it consumes
   */
  List<ConsumerStats> consumerStats();

  /**
   * Leaves gracefully: marks itself {@code LEAVING}, steps down (a successor can acquire at once),
   * stops its threads within a bounded time and deletes its row. Idempotent.
   */
  @Override
  void close();

  /**
   * @param store the store the cluster shares
   * @return a builder with the default settings
   * @throws IllegalArgumentException if {@code store} is null
   */
  static Builder builder(Store store) {
    if (store == null) {
      throw new IllegalArgumentException("store must not be null");
    }
    return new Builder(store);
  }

  /**
   * Settings with defaults; each setter checks its argument, {@link #build()} checks the rules that
   * tie them together and throws, naming both values, instead of adjusting anything. Every duration
   * is at most {@link Limits#MAX_DURATION} (the event max age {@link Limits#MAX_RETENTION}): beyond
   * that a database clock plus it, or a deadline in nanoseconds, would overflow while the node runs
   * instead of failing here.
   */
  final class Builder {
    /** Default heartbeat interval. */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

    /** Default self-fence deadline. */
    public static final Duration DEFAULT_SELF_FENCE_AFTER = Duration.ofSeconds(3);

    /** Default staleness after which the leader declares a node dead. */
    public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(5);

    /** Default lease time to live. */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(5);

    /** Default renew interval. */
    public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(1);

    /** Default leader self-fence deadline. */
    public static final Duration DEFAULT_FENCE_AFTER = Duration.ofSeconds(4);

    /** Default age after which non-active rows are deleted. */
    public static final Duration DEFAULT_DEFUNCT_AFTER = Duration.ofMinutes(10);

    /** Default rows per cleanup transaction. */
    public static final int DEFAULT_CLEANUP_BATCH_SIZE = 50;

    /** Default rows examined for cleanup per leader tick. */
    public static final int DEFAULT_MAX_CLEANUP_PER_TICK = 200;

    /** Default history entries kept. */
    public static final int DEFAULT_EVENTS_TO_KEEP = 10_000;

    /** Default oldest history entry kept. */
    public static final Duration DEFAULT_EVENT_MAX_AGE = Duration.ofDays(7);

    /** Default interval of the node's agent sweep. */
    public static final Duration DEFAULT_AGENT_SWEEP_INTERVAL = Duration.ofSeconds(1);

    /** Default rebalancing moves per leader pass. */
    public static final int DEFAULT_MAX_MOVES_PER_PASS = 20;

    /** Default actions per node sweep (SPEC §5.4). */
    public static final int DEFAULT_MAX_RECONCILIATIONS_PER_TICK = 50;

    /** Default interval of the queue reclaim sweep (SPEC §6.4). */
    public static final Duration DEFAULT_RECLAIM_INTERVAL = Duration.ofSeconds(5);

    /** Default messages re-pended per reclaim sweep. */
    public static final int DEFAULT_RECLAIM_PER_TICK = 1000;

    /** How long a closing node lets its queue handlers finish. */
    public static final Duration DEFAULT_DRAIN_DEADLINE = Duration.ofSeconds(10);

    /** Default deadline of an agent's start. */
    public static final Duration DEFAULT_AGENT_START_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Default deadline of an agent's stop. Short on purpose: the leader waits this long (plus the
     * self-fence and a sweep) after a node's last heartbeat before it hands the node's agents on.
     */
    public static final Duration DEFAULT_AGENT_STOP_TIMEOUT = Duration.ofSeconds(2);

    /** How long membership must have been still before agents without a row are placed. */
    public static final Duration DEFAULT_INITIAL_PLACEMENT_QUIET = Duration.ofMillis(500);

    /** The longest agents without a row are held back for a quiet membership. */
    public static final Duration DEFAULT_INITIAL_PLACEMENT_MAX_DELAY = Duration.ofSeconds(5);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern CAPABILITY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}");

    private final Store store;
    private String name = "node";
    private String address = "";
    private final Set<String> capabilities = new LinkedHashSet<>();
    private Duration heartbeatInterval = DEFAULT_HEARTBEAT_INTERVAL;
    private Duration selfFenceAfter = DEFAULT_SELF_FENCE_AFTER;
    private Duration staleAfter = DEFAULT_STALE_AFTER;
    private Duration leaseTtl = DEFAULT_LEASE_TTL;
    private Duration renewInterval = DEFAULT_RENEW_INTERVAL;
    private Duration fenceAfter = DEFAULT_FENCE_AFTER;
    private boolean promotable = true;
    private Duration acquireDelay = Duration.ZERO;
    private Duration defunctAfter = DEFAULT_DEFUNCT_AFTER;
    private int cleanupBatchSize = DEFAULT_CLEANUP_BATCH_SIZE;
    private int maxCleanupPerTick = DEFAULT_MAX_CLEANUP_PER_TICK;
    private int eventsToKeep = DEFAULT_EVENTS_TO_KEEP;
    private Duration eventMaxAge = DEFAULT_EVENT_MAX_AGE;
    private Duration agentSweepInterval = DEFAULT_AGENT_SWEEP_INTERVAL;
    private int maxMovesPerPass = DEFAULT_MAX_MOVES_PER_PASS;
    private int maxReconciliationsPerTick = DEFAULT_MAX_RECONCILIATIONS_PER_TICK;
    private Duration agentStartTimeout = DEFAULT_AGENT_START_TIMEOUT;
    private Duration agentStopTimeout = DEFAULT_AGENT_STOP_TIMEOUT;
    private Duration initialPlacementQuiet = DEFAULT_INITIAL_PLACEMENT_QUIET;
    private Duration initialPlacementMaxDelay = DEFAULT_INITIAL_PLACEMENT_MAX_DELAY;
    private final java.util.Map<String, AgentFamily> families = new java.util.LinkedHashMap<>();
    private final java.util.Map<String, io.tenure.internal.queue.ConsumerSpec> consumers =
        new java.util.LinkedHashMap<>();
    private final java.util.Map<String, io.tenure.internal.queue.ConsumerSpec> exclusive =
        new java.util.LinkedHashMap<>();
    private Duration reclaimInterval = DEFAULT_RECLAIM_INTERVAL;
    private int reclaimPerTick = DEFAULT_RECLAIM_PER_TICK;
    private Duration drainDeadline = DEFAULT_DRAIN_DEADLINE;
    private Ticker ticker = Ticker.system();
    private final List<NodeListener> listeners = new ArrayList<>();

    private Builder(Store store) {
      this.store = store;
    }

    /**
     * @param name 1 to 128 of {@code [A-Za-z0-9._-]}, starting with a letter or digit; unique among
     *     the running nodes of one process and store
     * @throws IllegalArgumentException if malformed
     */
    public Builder name(String name) {
      if (name != null) {
        Limits.checkWellFormed("node name", name);
      }
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "node name must be 1 to 128 of [A-Za-z0-9._-] starting with a letter or digit, got '"
                + name
                + "'");
      }
      this.name = name;
      return this;
    }

    /**
     * @param address the admin endpoint other nodes and operators reach it at, at most 255
     *     characters, no whitespace
     * @throws IllegalArgumentException if malformed
     */
    public Builder address(String address) {
      if (address != null) {
        Limits.checkWellFormed("node address", address);
      }
      if (address == null
          || address.length() > 255
          || address.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException(
            "node address must be at most 255 characters without whitespace, got '"
                + address
                + "'");
      }
      this.address = address;
      return this;
    }

    /**
     * @param capability what this node can run, e.g. an agent family: 1 to 64 of {@code
     *     [A-Za-z0-9._:/-]}, no whitespace or commas
     * @throws IllegalArgumentException if malformed
     */
    public Builder capability(String capability) {
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
      capabilities.add(capability);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = positive("heartbeatInterval", interval);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder selfFenceAfter(Duration after) {
      this.selfFenceAfter = positive("selfFenceAfter", after);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder staleAfter(Duration after) {
      this.staleAfter = positive("staleAfter", after);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder leaseTtl(Duration ttl) {
      this.leaseTtl = positive("leaseTtl", ttl);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder renewInterval(Duration interval) {
      this.renewInterval = positive("renewInterval", interval);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder fenceAfter(Duration after) {
      this.fenceAfter = positive("fenceAfter", after);
      return this;
    }

    /** Whether this node may lead (default true). */
    public Builder promotable(boolean promotable) {
      this.promotable = promotable;
      return this;
    }

    /**
     * @param delay how long to wait after seeing the lease free before trying to take it, so that
     *     preferred nodes (delay 0) win; 0 or more
     * @throws IllegalArgumentException if negative or longer than {@link Limits#MAX_DURATION}
     */
    public Builder acquireDelay(Duration delay) {
      this.acquireDelay = Limits.checkNotNegative("acquireDelay", delay, Limits.MAX_DURATION);
      return this;
    }

    /**
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder defunctAfter(Duration after) {
      this.defunctAfter = positive("defunctAfter", after);
      return this;
    }

    /**
     * @param batchSize rows per cleanup transaction, 1 to 1000
     * @param maxPerTick rows examined per leader tick, at least {@code batchSize}, at most 10,000
     * @throws IllegalArgumentException if out of range
     */
    public Builder cleanup(int batchSize, int maxPerTick) {
      if (batchSize < 1 || batchSize > 1000 || maxPerTick < batchSize || maxPerTick > 10_000) {
        throw new IllegalArgumentException(
            "cleanup batch size must be 1 to 1000 and per-tick cap from the batch size to 10000, got "
                + batchSize
                + " and "
                + maxPerTick);
      }
      this.cleanupBatchSize = batchSize;
      this.maxCleanupPerTick = maxPerTick;
      return this;
    }

    /**
     * @param keep newest history entries kept, 1 to 1,000,000
     * @param maxAge oldest entry kept, positive, at most {@link Limits#MAX_RETENTION}
     * @throws IllegalArgumentException if out of range
     */
    public Builder eventRetention(int keep, Duration maxAge) {
      if (keep < 1 || keep > 1_000_000) {
        throw new IllegalArgumentException("events to keep must be 1 to 1000000, got " + keep);
      }
      this.eventsToKeep = keep;
      this.eventMaxAge = Limits.checkPositive("event max age", maxAge, Limits.MAX_RETENTION);
      return this;
    }

    /**
     * Registers an agent family; its scheme becomes one of this node's capabilities.
     *
     * @throws IllegalArgumentException if null, or a family with the same scheme is registered
     */
    public Builder agentFamily(AgentFamily family) {
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
    public Builder agentSweepInterval(Duration interval) {
      this.agentSweepInterval = positive("agentSweepInterval", interval);
      return this;
    }

    /**
     * @param movesPerPass rebalancing moves per leader pass, 0 or less for no cap
     * @param reconciliationsPerTick actions per node sweep, 0 or less for no cap
     */
    public Builder agentCaps(int movesPerPass, int reconciliationsPerTick) {
      this.maxMovesPerPass = movesPerPass;
      this.maxReconciliationsPerTick = reconciliationsPerTick;
      return this;
    }

    /**
     * @throws IllegalArgumentException if either is not positive or longer than {@link
     *     Limits#MAX_DURATION}
     */
    public Builder agentTimeouts(Duration start, Duration stop) {
      this.agentStartTimeout = positive("agent start timeout", start);
      this.agentStopTimeout = positive("agent stop timeout", stop);
      return this;
    }

    /**
     * How the leader places agents that have no row yet, as at a cold start (like Kafka's {@code
     * group.initial.rebalance.delay.ms}): it waits until no node is joining and the newest node
     * joined at least {@code quiet} ago by the database clock, but never longer than {@code max}
     * from the first pass that held them back. Nodes starting together then get their agents evenly
     * at once, instead of the first nodes up claiming them all and handing them on at {@code
     * maxMovesPerPass} a pass. Agents whose rows exist (a dead node's, a hand-off's) are never held
     * back. Default 500 ms and 5 s.
     *
     * @param quiet how long membership must have been still; zero places at once
     * @param max the longest agents are held back; at least {@code quiet}
     * @throws IllegalArgumentException naming the setting if either is null, negative or longer
     *     than {@link Limits#MAX_DURATION}, or {@code max < quiet}
     */
    public Builder initialPlacementDelay(Duration quiet, Duration max) {
      Limits.checkNotNegative("initialPlacementDelay quiet", quiet, Limits.MAX_DURATION);
      Limits.checkNotNegative("initialPlacementDelay max", max, Limits.MAX_DURATION);
      if (max.compareTo(quiet) < 0) {
        throw new IllegalArgumentException(
            "initialPlacementDelay max must be at least its quiet period, got quiet "
                + quiet
                + " and max "
                + max);
      }
      this.initialPlacementQuiet = quiet;
      this.initialPlacementMaxDelay = max;
      return this;
    }

    /**
     * @param ticker the monotonic clock for local deadlines; tests pass a settable one
     * @throws IllegalArgumentException if null
     */
    public Builder ticker(Ticker ticker) {
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
     * @throws IllegalArgumentException if an argument is null or out of range, or this queue
     *     already has a consumer on this node
     */
    public Builder consumer(Queue queue, int concurrency, MessageHandler handler) {
      if (queue == null || handler == null) {
        throw new IllegalArgumentException("consumer queue and handler must not be null");
      }
      checkConcurrency(concurrency);
      return register(io.tenure.internal.queue.ConsumerSpec.single(queue, concurrency, handler));
    }

    /**
     * Consumes a queue in batches: up to {@code concurrency} handler calls at once, each with 1 to
     * {@code batchSize} messages (SPEC §6.5). A call that returns marks its messages done; one that
     * throws fails them all, each retried or dead-lettered by its own attempts.
     *
     * @param batchSize 1 to 1000
     * @throws IllegalArgumentException if an argument is null or out of range, or this queue
     *     already has a consumer on this node
     */
    public Builder batchConsumer(
        Queue queue, int concurrency, int batchSize, BatchHandler handler) {
      if (queue == null || handler == null) {
        throw new IllegalArgumentException("consumer queue and handler must not be null");
      }
      checkConcurrency(concurrency);
      if (batchSize < 1 || batchSize > io.tenure.spi.QueueStore.MAX_BATCH) {
        throw new IllegalArgumentException(
            "batch size must be 1 to " + io.tenure.spi.QueueStore.MAX_BATCH + ", got " + batchSize);
      }
      return register(
          new io.tenure.internal.queue.ConsumerSpec(queue, concurrency, batchSize, handler));
    }

    private Builder register(io.tenure.internal.queue.ConsumerSpec spec) {
      String queue = spec.queue().name();
      if (exclusive.containsKey(queue) || consumers.putIfAbsent(queue, spec) != null) {
        throw new IllegalArgumentException(
            "queue '" + queue + "' already has a consumer on this node");
      }
      return this;
    }

    private static void checkConcurrency(int concurrency) {
      if (concurrency < 1 || concurrency > io.tenure.spi.QueueStore.MAX_BATCH) {
        throw new IllegalArgumentException(
            "consumer concurrency must be 1 to "
                + io.tenure.spi.QueueStore.MAX_BATCH
                + ", got "
                + concurrency);
      }
    }

    /**
     * Consumes an exclusive queue (SPEC §6.9): exactly one node at a time, one message at a time,
     * in strict enqueue order, by running the agent {@code queue://NAME} (placed by the leader like
     * any agent). Every claim and resolve carries the agent's ownership epoch, so a node that lost
     * the agent cannot take or finish its successor's work. Register the same exclusive queues on
     * every node that may run them.
     *
     * @throws IllegalArgumentException if an argument is null or the queue already has a consumer
     *     on this node
     */
    public Builder exclusiveConsumer(Queue queue, MessageHandler handler) {
      if (queue == null || handler == null) {
        throw new IllegalArgumentException("consumer queue and handler must not be null");
      }
      if (consumers.containsKey(queue.name())
          || exclusive.putIfAbsent(
                  queue.name(), io.tenure.internal.queue.ConsumerSpec.single(queue, 1, handler))
              != null) {
        throw new IllegalArgumentException(
            "queue '" + queue.name() + "' already has a consumer on this node");
      }
      return this;
    }

    /**
     * How often this node's reclaim sweep re-pends messages whose lease expired, and how many per
     * sweep (SPEC §6.4). Nothing stays stranded longer than the lease plus this interval.
     *
     * @throws IllegalArgumentException if the interval is not positive or longer than {@link
     *     Limits#MAX_DURATION}, or the cap below 1
     */
    public Builder queueReclaim(Duration interval, int perTick) {
      this.reclaimInterval = positive("reclaim interval", interval);
      if (perTick < 1) {
        throw new IllegalArgumentException("reclaims per tick must be at least 1, got " + perTick);
      }
      this.reclaimPerTick = perTick;
      return this;
    }

    /**
     * How long a closing node lets its running queue handlers finish before it abandons them (their
     * leases then lapse and other nodes reclaim the messages); default 10 s.
     *
     * @throws IllegalArgumentException if not positive or longer than {@link Limits#MAX_DURATION}
     */
    public Builder drainDeadline(Duration deadline) {
      this.drainDeadline = positive("drain deadline", deadline);
      return this;
    }

    /**
     * @throws IllegalArgumentException if null
     */
    public Builder listener(NodeListener listener) {
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
     *     leaseTtl} does not hold (statementTimeout is the store's)
     */
    public TenureNode build() {
      Duration statementTimeout = store.describe().statementTimeout();
      requireLess("heartbeatInterval", heartbeatInterval, "selfFenceAfter", selfFenceAfter);
      requireLess("selfFenceAfter", selfFenceAfter, "staleAfter", staleAfter);
      requireLess(
          "renewInterval + statementTimeout (" + renewInterval + " + " + statementTimeout + ")",
          renewInterval.plus(statementTimeout),
          "fenceAfter",
          fenceAfter);
      requireLess("fenceAfter", fenceAfter, "leaseTtl", leaseTtl);
      java.util.Map<String, AgentFamily> allFamilies = new java.util.LinkedHashMap<>(families);
      Set<String> allCapabilities = new LinkedHashSet<>(capabilities);
      if (!exclusive.isEmpty()) {
        String scheme = io.tenure.internal.queue.ExclusiveQueues.SCHEME;
        if (allFamilies.putIfAbsent(
                scheme,
                new io.tenure.internal.queue.ExclusiveQueues(
                    store.queues(), exclusive, drainDeadline))
            != null) {
          throw new IllegalArgumentException(
              "an agent family for scheme '"
                  + scheme
                  + "' is registered; it is reserved for exclusive queues");
        }
        allCapabilities.add(scheme);
      }
      NodeSettings settings =
          new NodeSettings(
              name,
              address,
              allCapabilities,
              heartbeatInterval,
              selfFenceAfter,
              staleAfter,
              leaseTtl,
              renewInterval,
              fenceAfter,
              statementTimeout,
              promotable,
              acquireDelay,
              defunctAfter,
              cleanupBatchSize,
              maxCleanupPerTick,
              eventsToKeep,
              eventMaxAge,
              agentSweepInterval,
              maxMovesPerPass,
              maxReconciliationsPerTick,
              agentStartTimeout,
              agentStopTimeout,
              initialPlacementQuiet,
              initialPlacementMaxDelay);
      return new DefaultTenureNode(
          store,
          settings,
          ticker,
          listeners,
          allFamilies,
          new io.tenure.internal.queue.QueueSettings(
              List.copyOf(consumers.values()), reclaimInterval, reclaimPerTick, drainDeadline));
    }

    private static void requireLess(
        String smallName, Duration small, String bigName, Duration big) {
      if (small.compareTo(big) >= 0) {
        throw new IllegalArgumentException(
            smallName + " must be less than " + bigName + ", got " + small + " and " + big);
      }
    }

    private static Duration positive(String what, Duration value) {
      return Limits.checkPositive(what, value, Limits.MAX_DURATION);
    }
  }
}
