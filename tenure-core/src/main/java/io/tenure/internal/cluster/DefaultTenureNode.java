package io.tenure.internal.cluster;

import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ConsumerStats;
import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.ScheduleStats;
import io.tenure.TenureNode;
import io.tenure.Ticker;
import io.tenure.WakeStats;
import io.tenure.internal.agents.AgentRuntime;
import io.tenure.internal.agents.PacedSweeps;
import io.tenure.internal.cluster.NodeThreads.Role;
import io.tenure.internal.queue.ConsumerSpec;
import io.tenure.internal.schedules.ScheduleFirer;
import io.tenure.internal.wake.WakeHost;
import io.tenure.internal.wake.WakingStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipView;
import io.tenure.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node: its parts wired together, and its lifecycle. The threads are {@link NodeThreads.Role}s:
 *
 * <ul>
 *   <li>heartbeat: one write per {@code heartbeatInterval} on the store's coordination connections;
 *   <li>elector: acquire or renew per {@code renewInterval}, nothing else;
 *   <li>lock (where the store has a session lock): checks the leader's session lock, or watches the
 *       leader's for a fast take-over, every tenth of a {@code renewInterval};
 *   <li>leader: while leader, the duties (deaths, cleanup) and the agent pass;
 *   <li>agents: the node's agent sweep;
 *   <li>reclaim: the queue reclaim sweep;
 *   <li>watchdog: checks the leader trust window and the self-fence deadline every few ms, with no
 *       I/O, so a renewal stuck in the database still demotes on time;
 *   <li>per consumed queue ({@link NodeQueues}): two claimers, a dispatcher and two resolvers;
 *       handlers on virtual threads.
 * </ul>
 */
public final class DefaultTenureNode implements TenureNode {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultTenureNode.class);
  private static final Set<String> RUNNING_NAMES = ConcurrentHashMap.newKeySet();

  private final Store given;
  private final Store store;
  private final NodeSettings settings;
  private final String registryKey;
  private final MembershipKeeper keeper;
  private final LeaderElector elector;
  private final LeaderDuties duties;
  private final AgentRuntime agents;
  private final AgentControls controls;
  private final List<ConsumerSpec> consumerSpecs;
  private final NodeQueues queues;
  private final ScheduleFirer schedules;
  private final NodeThreads threads;
  private final @Nullable WakeHost wake;
  private volatile Optional<AutoCloseable> placements = Optional.empty();
  private final Object lifecycle = new Object();
  private final EarlyPass earlyPass;
  private boolean started;
  private boolean closed;

  /**
   * @param given the store; a bare one gets a sender of the node's own, so its placements wake
   * @param families every agent family the node runs, the exclusive queues' included
   * @param consumers the shared queue consumers
   * @param wake the node's wake-up socket, bound, or null if it takes none; closed with the node
   */
  public DefaultTenureNode(
      Store given,
      NodeSettings settings,
      Ticker ticker,
      List<NodeListener> listeners,
      Map<String, AgentFamily> families,
      List<ConsumerSpec> consumers,
      @Nullable WakeHost wake) {
    this.given = given;
    this.store = WakingStore.forNode(given); // a bare store's leader wakes the sweeps too
    this.settings = settings;
    this.wake = wake;
    this.registryKey =
        store.describe().location() + "|" + store.describe().prefix() + "|" + settings.name();
    List<NodeListener> all = new ArrayList<>(listeners);
    all.add(
        new NodeListener() {
          @Override
          public void onPromoted(long epoch) {
            passNow();
          }
        });
    Listeners fired = new Listeners(all);
    History history = new History(store.events());
    this.keeper = new MembershipKeeper(store.membership(), settings, ticker, fired, history);
    this.elector =
        new LeaderElector(store.leases(), settings, ticker, keeper::nodeId, fired, history);
    this.duties =
        new LeaderDuties(store.membership(), store.events(), settings, history, keeper::steady);
    this.agents =
        new AgentRuntime(
            store.agents(), settings, families, keeper::nodeId, store.events(), ticker);
    this.controls = new AgentControls(store, settings, agents, elector::fence, ticker);
    this.consumerSpecs = List.copyOf(consumers);
    this.queues =
        new NodeQueues(
            store.queues(),
            settings.queues(),
            consumers,
            keeper::nodeId,
            () -> !keeper.isSelfFenced(),
            ticker,
            wake,
            () -> WakingStore.sent(store));
    this.schedules =
        new ScheduleFirer(store.schedules(), store::now, ticker, new java.util.SplittableRandom());
    this.threads = new NodeThreads(settings.name(), keeper::nodeId);
    this.earlyPass = new EarlyPass(threads, this::leaderTick);
  }

  @Override
  public String nodeId() {
    return keeper.nodeId();
  }

  @Override
  public NodeSettings settings() {
    return settings;
  }

  @Override
  public void start() {
    synchronized (lifecycle) {
      if (started || closed) {
        throw new IllegalStateException("node " + settings.name() + " was already started");
      }
      if (!RUNNING_NAMES.add(registryKey)) {
        throw new IllegalStateException(
            "a node named '"
                + settings.name()
                + "' already runs in this process on "
                + store.describe().location()
                + " (prefix "
                + store.describe().prefix()
                + ")");
      }
      started = true;
    }
    try {
      keeper.join();
    } catch (RuntimeException e) {
      RUNNING_NAMES.remove(registryKey);
      throw e;
    }
    LOG.info(
        "node {} ({}) starts: {}",
        settings.name(),
        nodeId(),
        EffectiveConfiguration.describe(settings, store.describe(), consumerSpecs));
    threads.schedule(Role.HEARTBEAT, settings.heartbeatInterval(), this::heartbeatTick);
    threads.schedule(Role.ELECTOR, settings.renewInterval(), elector::tick);
    elector
        .lockWatch()
        .ifPresent(
            watch -> threads.schedule(Role.LOCK, LockTiming.lockInterval(settings), watch::tick));
    threads.schedule(Role.LEADER, settings.renewInterval(), this::leaderTick);
    threads.schedule(
        Role.SCHEDULES, ScheduleFirer.TICK, () -> elector.fence().ifPresent(schedules::tick));
    startSweeps();
    threads.schedule(
        Role.RECLAIM,
        settings.queues().reclaimInterval(),
        () -> queues.reclaimTick(() -> elector.fence().isPresent()));
    try (var log = threads.nodeLogContext()) {
      queues.start(); // the consumers' threads take the node's keys from here
    }
    threads.schedule(
        Role.WATCHDOG, MembershipKeeper.watchdogInterval(settings), this::watchdogTick);
  }

  /**
   * The agent sweep, every {@code agentSweepInterval}, and sooner when the leader announces
   * placements: where the store can (PostgreSQL NOTIFY), and by a UDP wake-up where the node takes
   * them. A cold start's agents are claimed as soon as they are placed, not up to an interval
   * later. The pacer keeps the per-tick cap a cap.
   */
  private void startSweeps() {
    // On the scheduler's own clock: the pacer's times become its delays.
    PacedSweeps sweeps =
        new PacedSweeps(
            threads.start(Role.AGENTS),
            settings.agentSweepInterval(),
            settings.maxReconciliationsPerTick(),
            Ticker.system(),
            this::agentTick);
    placements = store.agents().listen(epoch -> sweeps.wake());
    if (wake != null) {
      wake.onAgentsPlaced(sweeps::wake); // on every store, also those that cannot notify
    }
    sweeps.start();
  }

  private void heartbeatTick() {
    if (!keeper.heartbeat()) {
      elector.demote(DemotionReason.EJECTED);
      // The rows still name the old incarnation: stop and release them under that id.
      agents.stopAll(true);
      keeper.rejoin();
    }
  }

  /**
   * The leader's duties and agent pass, on their own thread: a long pass (thousands of agents at a
   * cold start) must never hold back the lease renewal, or the leader would fence itself. Their
   * writes carry the fence, so a pass that outlives the leadership changes nothing.
   */
  private void leaderTick() {
    elector
        .fence()
        .ifPresent(
            fence -> {
              try (var log =
                  io.tenure.internal.logging.LogContext.with(
                      io.tenure.LogKeys.EPOCH, Long.toString(fence.epoch()))) {
                duties.tick(fence);
                agentPass(fence);
              }
            });
  }

  /**
   * A new leader runs its duties and agent pass at once, not up to a {@code renewInterval} after it
   * won the lease: at a cold start that is when every agent is waiting for its first placement.
   */
  private void passNow() {
    threads.runNow(Role.LEADER, this::leaderTick);
  }

  /**
   * One agent pass. When the next one has work sooner than a {@code renewInterval} from now (a cold
   * start's agents held back for a quiet membership may be placed, a silent node may be declared
   * dead, a dead node's agents may be freed), the leader's duties and pass run again then, not at
   * the next regular tick: a crashed node's agents move at its may-run deadline.
   */
  private void agentPass(LeaderFence fence) {
    MembershipView members = store.membership().read();
    // Taken once the read returned: the database's now it measured from was no later, so the next
    // pass is never early (an early one finds nothing to free and reads every row again).
    long readAt = System.nanoTime();
    long next = agents.leaderPass(fence, members);
    if (next <= 0 || next >= settings.renewInterval().toNanos()) {
      return;
    }
    earlyPass.scheduleAt(readAt + next);
  }

  /**
   * A self-fenced node stops its agents and claims nothing until it heart-beats again.
   *
   * @return the sweep's actions; a self-fenced stop is not one, and a failed sweep logs and counts
   *     as having taken all it might
   */
  private int agentTick(int most) {
    try {
      if (keeper.isSelfFenced()) {
        agents.stopAll(false);
        return 0;
      }
      return agents.sweepTick(most);
    } catch (RuntimeException e) {
      LOG.warn("node {} ({}): agents tick failed: {}", nodeId(), settings.name(), e.toString());
      return most;
    }
  }

  private void watchdogTick() {
    elector.checkFence();
    keeper.checkSelfFence();
  }

  @Override
  public List<ConsumerStats> consumerStats() {
    return queues.stats();
  }

  @Override
  public WakeStats wakeStats() {
    return queues.wakeStats();
  }

  @Override
  public ScheduleStats scheduleStats() {
    return schedules.stats();
  }

  @Override
  public Set<AgentUri> runningAgents() {
    return agents.running();
  }

  @Override
  public void pause(AgentUri uri) {
    controls.pause(uri);
  }

  @Override
  public void resume(AgentUri uri) {
    controls.resume(uri);
  }

  @Override
  public void pin(AgentUri uri, @Nullable String nodeName) {
    controls.pin(uri, nodeName);
  }

  @Override
  public boolean rebalance() {
    return controls.rebalance();
  }

  @Override
  public boolean isLeader() {
    return elector.isLeader();
  }

  @Override
  public Optional<LeaderFence> leaderFence() {
    return elector.fence();
  }

  @Override
  public boolean isSelfFenced() {
    return keeper.isSelfFenced();
  }

  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      if (!started) {
        queues.stopListening(); // the wake-up socket was bound when the node was built
        WakingStore.closeForNode(given, store);
        return;
      }
    }
    try {
      keeper.markLeaving();
      // Threads first: an elector tick still running after the step-down would take the lease
      // back, and a sweep would start agents again. Heart-beats go on while the agents stop.
      elector.shutdown();
      threads.stop(
          Role.ELECTOR,
          Role.LOCK,
          Role.LEADER,
          Role.SCHEDULES,
          Role.AGENTS,
          Role.RECLAIM,
          Role.WATCHDOG);
      queues.stopListening();
      placements.ifPresent(DefaultTenureNode::closeQuietly);
      queues.close();
      agents.stopAll(true);
      elector.stepDown(nodeId());
      threads.stop(Role.HEARTBEAT);
      keeper.remove();
    } catch (RuntimeException e) {
      LOG.warn(
          "node {} did not leave cleanly; its row expires and is cleaned up: {}",
          nodeId(),
          e.toString());
    } finally {
      elector.close();
      agents.close();
      WakingStore.closeForNode(given, store);
      RUNNING_NAMES.remove(registryKey);
    }
  }

  static void closeQuietly(AutoCloseable subscription) {
    try {
      subscription.close();
    } catch (Exception e) {
      LOG.debug("closing a store subscription: {}", e.toString());
    }
  }
}
