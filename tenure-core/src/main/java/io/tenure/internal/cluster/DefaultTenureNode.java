package io.tenure.internal.cluster;

import io.tenure.AgentAssignment;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.TenureException;
import io.tenure.TenureNode;
import io.tenure.Ticker;
import io.tenure.internal.agents.AgentRuntime;
import io.tenure.internal.agents.PacedSweeps;
import io.tenure.internal.queue.QueueConsumer;
import io.tenure.internal.queue.QueueSettings;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node: platform threads of its own, so that none of them waits behind another.
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
 *   <li>per consumed queue: a claimer, a dispatcher and a resolver; handlers on virtual threads.
 * </ul>
 */
public final class DefaultTenureNode implements TenureNode {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultTenureNode.class);
  private static final Set<String> RUNNING_NAMES = ConcurrentHashMap.newKeySet();
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  private final Store store;
  private final NodeSettings settings;
  private final String registryKey;
  private final MembershipKeeper keeper;
  private final LeaderElector elector;
  private final LeaderDuties duties;
  private final AgentRuntime agents;
  private final QueueSettings queueSettings;
  private final List<QueueConsumer> consumers;
  private volatile Optional<AutoCloseable> listening = Optional.empty();
  private volatile Optional<AutoCloseable> placements = Optional.empty();
  private final Object lifecycle = new Object();
  private final java.util.Map<String, ScheduledExecutorService> threads =
      new java.util.LinkedHashMap<>();
  private volatile @org.jspecify.annotations.Nullable ScheduledExecutorService leaderThread;
  private final java.util.concurrent.atomic.AtomicBoolean earlyPass =
      new java.util.concurrent.atomic.AtomicBoolean();
  private boolean started;
  private boolean closed;

  public DefaultTenureNode(
      Store store,
      NodeSettings settings,
      Ticker ticker,
      List<NodeListener> listeners,
      java.util.Map<String, AgentFamily> families,
      QueueSettings queueSettings) {
    this.store = store;
    this.settings = settings;
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
    this.queueSettings = queueSettings;
    this.consumers =
        queueSettings.consumers().stream()
            .map(
                spec ->
                    new QueueConsumer(
                        store.queues(), spec, keeper::nodeId, () -> !keeper.isSelfFenced(), ticker))
            .toList();
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
    schedule("heartbeat", settings.heartbeatInterval(), this::heartbeatTick);
    schedule("elector", settings.renewInterval(), elector::tick);
    elector
        .lockWatch()
        .ifPresent(watch -> schedule("lock", LeaderElector.lockInterval(settings), watch::tick));
    leaderThread = schedule("leader", settings.renewInterval(), this::leaderTick);
    startSweeps();
    schedule("reclaim", queueSettings.reclaimInterval(), this::reclaimTick);
    consumers.forEach(QueueConsumer::start);
    if (!consumers.isEmpty()) {
      // Wake-ups where the store has them (PostgreSQL NOTIFY); consumers poll either way.
      java.util.Map<String, QueueConsumer> byQueue = new java.util.HashMap<>();
      consumers.forEach(c -> byQueue.put(c.queueName(), c));
      listening =
          store
              .queues()
              .listen(
                  queue -> {
                    QueueConsumer consumer = byQueue.get(queue);
                    if (consumer != null) {
                      consumer.wake();
                    }
                  });
    }
    Duration watch = settings.renewInterval().dividedBy(20);
    schedule(
        "watchdog",
        watch.compareTo(Duration.ofMillis(5)) < 0 ? Duration.ofMillis(5) : watch,
        this::watchdogTick);
  }

  private ScheduledExecutorService schedule(String role, Duration period, Runnable tick) {
    ScheduledExecutorService thread = thread(role);
    thread.scheduleWithFixedDelay(
        () -> guarded(role, tick), 0, period.toNanos(), TimeUnit.NANOSECONDS);
    return thread;
  }

  private ScheduledExecutorService thread(String role) {
    ScheduledExecutorService thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "tenure-" + role + "-" + settings.name());
              t.setDaemon(true);
              return t;
            });
    threads.put(role, thread);
    return thread;
  }

  /**
   * The agent sweep, every {@code agentSweepInterval}, and sooner when the leader announces
   * placements where the store can (PostgreSQL NOTIFY): a cold start's agents are claimed as soon
   * as they are placed, not up to an interval later. The pacer keeps the per-tick cap a cap.
   */
  private void startSweeps() {
    // On the scheduler's own clock: the pacer's times become its delays.
    PacedSweeps sweeps =
        new PacedSweeps(
            thread("agents"),
            settings.agentSweepInterval(),
            settings.maxReconciliationsPerTick(),
            Ticker.system(),
            this::agentTick);
    placements = store.agents().listen(epoch -> sweeps.wake());
    sweeps.start();
  }

  private void guarded(String role, Runnable tick) {
    try {
      tick.run();
    } catch (RuntimeException e) {
      LOG.warn("node {} ({}): {} tick failed: {}", nodeId(), settings.name(), role, e.toString());
    }
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
              duties.tick(fence);
              agentPass(fence);
            });
  }

  /**
   * A new leader runs its duties and agent pass at once, not up to a {@code renewInterval} after it
   * won the lease: at a cold start that is when every agent is waiting for its first placement.
   */
  private void passNow() {
    ScheduledExecutorService thread = leaderThread;
    if (thread != null) {
      try {
        thread.execute(() -> guarded("leader", this::leaderTick));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // the node is stopping
      }
    }
  }

  /**
   * One agent pass. When it held a cold start's agents back for a quiet membership, the next pass
   * runs as soon as they may be placed, not up to a whole {@code renewInterval} later.
   */
  private void agentPass(LeaderFence fence) {
    long hold = agents.leaderPass(fence, store.membership().read());
    ScheduledExecutorService thread = leaderThread;
    if (hold > 0
        && hold < settings.renewInterval().toNanos()
        && thread != null
        && earlyPass.compareAndSet(false, true)) {
      try {
        thread.schedule(
            () -> {
              earlyPass.set(false);
              guarded("leader", () -> elector.fence().ifPresent(this::agentPass));
            },
            hold,
            TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        earlyPass.set(false); // the node is stopping
      }
    }
  }

  /** Every node sweeps: the sweep is one indexed statement, and no queue waits for a leader. */
  private void reclaimTick() {
    int reclaimed = store.queues().reclaimExpired(queueSettings.reclaimPerTick());
    if (reclaimed > 0) {
      LOG.info("node {}: re-pended {} messages whose lease expired", nodeId(), reclaimed);
    }
    // Retention (SPEC §6.7) by the leader alone, for the queues whose policy this node knows.
    if (elector.fence().isPresent()) {
      for (io.tenure.internal.queue.ConsumerSpec spec : queueSettings.consumers()) {
        io.tenure.QueuePolicy policy = spec.queue().policy();
        store
            .queues()
            .deleteExpired(
                spec.queue().name(),
                policy.retainDone(),
                policy.retainDead(),
                queueSettings.reclaimPerTick());
      }
    }
  }

  private static void closeQuietly(AutoCloseable subscription) {
    try {
      subscription.close();
    } catch (Exception e) {
      LOG.debug("closing a store subscription: {}", e.toString());
    }
  }

  @Override
  public List<io.tenure.ConsumerStats> consumerStats() {
    return consumers.stream().map(QueueConsumer::stats).toList();
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

  @Override
  public java.util.Set<AgentUri> runningAgents() {
    return agents.running();
  }

  @Override
  public void pause(AgentUri uri) {
    if (!store.agents().setPaused(uri, true)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing paused");
    }
    agents.stop(uri, true);
    Duration bound =
        settings.agentStopTimeout().plus(settings.agentSweepInterval().multipliedBy(2));
    long deadline = System.nanoTime() + bound.toNanos();
    while (store.agents().read(uri).map(row -> row.owner() != null).orElse(false)) {
      if (System.nanoTime() > deadline) {
        throw new TenureException(
            "agent "
                + uri
                + " is paused but its owner "
                + store.agents().read(uri).map(AgentAssignment::owner).orElse("?")
                + " did not stop it within "
                + bound);
      }
      sleepBriefly();
    }
  }

  @Override
  public void resume(AgentUri uri) {
    if (!store.agents().setPaused(uri, false)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing resumed");
    }
  }

  @Override
  public void pin(AgentUri uri, @org.jspecify.annotations.Nullable String nodeName) {
    if (nodeName != null
        && store.membership().read().nodes().stream()
            .noneMatch(
                n ->
                    n.name().equals(nodeName)
                        && n.status() == io.tenure.NodeStatus.ACTIVE
                        && n.capabilities().contains(uri.scheme()))) {
      throw new IllegalArgumentException(
          "no ACTIVE node named '"
              + nodeName
              + "' can run "
              + uri.scheme()
              + " agents; "
              + uri
              + " not pinned");
    }
    if (!store.agents().pin(uri, nodeName)) {
      throw new IllegalArgumentException("no agent " + uri + " is assigned; nothing pinned");
    }
  }

  @Override
  public boolean rebalance() {
    Optional<LeaderFence> fence = elector.fence();
    fence.ifPresent(f -> agents.leaderPass(f, store.membership().read()));
    return fence.isPresent();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TenureException("interrupted while waiting for an agent to stop", e);
    }
  }

  private void watchdogTick() {
    elector.checkFence();
    keeper.checkSelfFence();
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
        return;
      }
    }
    try {
      keeper.markLeaving();
      // Threads first: an elector tick still running after the step-down would take the lease
      // back, and a sweep would start agents again. Heart-beats go on while the agents stop.
      elector.shutdown();
      stopThreads("elector", "lock", "leader", "agents", "reclaim", "watchdog");
      listening.ifPresent(DefaultTenureNode::closeQuietly);
      placements.ifPresent(DefaultTenureNode::closeQuietly);
      closeConsumers();
      agents.stopAll(true);
      elector.stepDown(nodeId());
      stopThreads("heartbeat");
      keeper.remove();
    } catch (RuntimeException e) {
      LOG.warn(
          "node {} did not leave cleanly; its row expires and is cleaned up: {}",
          nodeId(),
          e.toString());
    } finally {
      elector.close();
      agents.close();
      RUNNING_NAMES.remove(registryKey);
    }
  }

  /**
   * Stops claiming, lets handlers finish, releases what never started (SPEC §6.6), every consumer
   * at once, and waits at most {@link QueueConsumer#closeBound}: shutdown never waits without
   * bound. On platform threads: handlers that spin without blocking can hold every carrier thread,
   * and a virtual thread would then never run.
   */
  private void closeConsumers() {
    Duration drain = queueSettings.drainDeadline();
    List<Thread> closing =
        consumers.stream()
            .map(
                c ->
                    Thread.ofPlatform()
                        .daemon()
                        .name("tenure-close-" + c.queueName())
                        .start(() -> c.close(drain)))
            .toList();
    long end = System.nanoTime() + QueueConsumer.closeBound(drain).toNanos();
    for (Thread thread : closing) {
      try {
        if (!thread.join(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
          LOG.warn(
              "node {}: closing the consumer on {} took longer than {}; abandoned",
              nodeId(),
              thread.getName(),
              QueueConsumer.closeBound(drain));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void stopThreads(String... roles) {
    List<ScheduledExecutorService> stopping = new ArrayList<>();
    for (String role : roles) {
      ScheduledExecutorService thread = threads.get(role);
      if (thread != null) {
        thread.shutdownNow();
        stopping.add(thread);
      }
    }
    for (ScheduledExecutorService thread : stopping) {
      try {
        if (!thread.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          // Abandoned, not killed: it is a daemon thread and its writes are fenced.
          LOG.warn("node {}: a thread did not stop within {}; abandoning it", nodeId(), STOP_WAIT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
