package io.tenure.internal.cluster;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.TenureNode;
import io.tenure.Ticker;
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
 * A node: three platform threads of its own, so that none of them waits behind another.
 *
 * <ul>
 *   <li>heartbeat: one write per {@code heartbeatInterval} on the store's coordination connections;
 *   <li>elector: acquire or renew per {@code renewInterval}, then the leader duties;
 *   <li>watchdog: checks the leader trust window and the self-fence deadline every few ms, with no
 *       I/O, so a renewal stuck in the database still demotes on time.
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
  private final Object lifecycle = new Object();
  private final List<ScheduledExecutorService> threads = new ArrayList<>();
  private boolean started;
  private boolean closed;

  public DefaultTenureNode(Store store, NodeSettings settings, Ticker ticker, List<NodeListener> listeners) {
    this.store = store;
    this.settings = settings;
    this.registryKey = store.describe().location() + "|" + store.describe().prefix() + "|" + settings.name();
    Listeners fired = new Listeners(listeners);
    History history = new History(store.events());
    this.keeper = new MembershipKeeper(store.membership(), settings, ticker, fired, history);
    this.elector = new LeaderElector(store.leases(), settings, ticker, keeper::nodeId, fired, history);
    this.duties = new LeaderDuties(store.membership(), store.events(), settings, history);
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
            "a node named '" + settings.name() + "' already runs in this process on "
                + store.describe().location() + " (prefix " + store.describe().prefix() + ")");
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
    schedule("elector", settings.renewInterval(), this::electionTick);
    Duration watch = settings.renewInterval().dividedBy(20);
    schedule("watchdog", watch.compareTo(Duration.ofMillis(5)) < 0 ? Duration.ofMillis(5) : watch, this::watchdogTick);
  }

  private void schedule(String role, Duration period, Runnable tick) {
    ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread t = new Thread(runnable, "tenure-" + role + "-" + settings.name());
      t.setDaemon(true);
      return t;
    });
    threads.add(thread);
    thread.scheduleWithFixedDelay(() -> guarded(role, tick), 0, period.toNanos(), TimeUnit.NANOSECONDS);
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
      keeper.rejoin();
    }
  }

  private void electionTick() {
    elector.tick();
    elector.fence().ifPresent(duties::tick);
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
      // Threads first: an elector tick still running after the step-down would take the lease back.
      elector.shutdown();
      stopThreads();
      elector.stepDown(nodeId());
      keeper.remove();
    } catch (RuntimeException e) {
      LOG.warn("node {} did not leave cleanly; its row expires and is cleaned up: {}", nodeId(), e.toString());
    } finally {
      elector.close();
      RUNNING_NAMES.remove(registryKey);
    }
  }

  private void stopThreads() {
    threads.forEach(ScheduledExecutorService::shutdownNow);
    for (ScheduledExecutorService thread : threads) {
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
