package io.tenure.internal.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's platform threads, one per {@link Role}, so that none of them waits behind another. A
 * role is an enum, not a name: stopping a thread that was never started is a compile error, not a
 * silent no-op.
 */
final class NodeThreads {
  private static final Logger LOG = LoggerFactory.getLogger(NodeThreads.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  /** What a node's thread does; its name in thread names and logs. */
  enum Role {
    /** One heartbeat write per {@code heartbeatInterval}. */
    HEARTBEAT("heartbeat"),
    /** Acquire or renew per {@code renewInterval}, nothing else. */
    ELECTOR("elector"),
    /** The session-lock check or watch, where the store has a session lock. */
    LOCK("lock"),
    /** While leader, the duties (deaths, cleanup) and the agent pass. */
    LEADER("leader"),
    SCHEDULES("schedules"),
    /** The node's agent sweep. */
    AGENTS("agents"),
    /** The queue reclaim and retention sweep. */
    RECLAIM("reclaim"),
    /** The trust-window and self-fence checks, with no I/O. */
    WATCHDOG("watchdog");

    private final String label;

    Role(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  private final String nodeName;
  private final Supplier<String> nodeId;
  private final Map<Role, ScheduledExecutorService> threads = new EnumMap<>(Role.class);

  NodeThreads(String nodeName, Supplier<String> nodeId) {
    this.nodeName = nodeName;
    this.nodeId = nodeId;
  }

  /** Starts the role's thread running {@code tick} now and every {@code period} after each run. */
  synchronized ScheduledExecutorService schedule(Role role, Duration period, Runnable tick) {
    ScheduledExecutorService thread = start(role);
    thread.scheduleWithFixedDelay(
        () -> guarded(role, tick), 0, period.toNanos(), TimeUnit.NANOSECONDS);
    return thread;
  }

  /** Starts the role's thread with nothing scheduled on it. */
  synchronized ScheduledExecutorService start(Role role) {
    if (threads.containsKey(role)) {
      throw new IllegalStateException("the " + role + " thread of " + nodeName + " already runs");
    }
    ScheduledExecutorService thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t =
                  new Thread(
                      () -> {
                        try (var log = nodeLogContext()) {
                          runnable.run();
                        }
                      },
                      "tenure-" + role + "-" + nodeName);
              t.setDaemon(true);
              return t;
            });
    threads.put(role, thread);
    return thread;
  }

  /**
   * @return the role's thread, if started
   */
  synchronized Optional<ScheduledExecutorService> get(Role role) {
    return Optional.ofNullable(threads.get(role));
  }

  /**
   * Runs {@code tick} on the role's thread now, unless the thread is not running.
   *
   * @return false if the thread is stopping or was never started
   */
  boolean runNow(Role role, Runnable tick) {
    Optional<ScheduledExecutorService> thread = get(role);
    try {
      thread.ifPresent(t -> t.execute(() -> guarded(role, tick)));
      return thread.isPresent();
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return false; // the node is stopping
    }
  }

  /**
   * The node's keys, and only those, in the log context (SPEC §13.4): its name, and its id as of
   * now.
   */
  io.tenure.internal.logging.LogContext.Scope nodeLogContext() {
    return io.tenure.internal.logging.LogContext.only(
        io.tenure.LogKeys.NODE, nodeName, io.tenure.LogKeys.NODE_ID, nodeId.get());
  }

  /** A failed tick logs and the next one runs on time. */
  void guarded(Role role, Runnable tick) {
    try (var log = nodeLogContext()) {
      tick.run();
    } catch (RuntimeException e) {
      LOG.warn("node {} ({}): {} tick failed: {}", nodeId.get(), nodeName, role, e.toString());
    }
  }

  /**
   * Interrupts the roles' threads together and waits up to {@link #STOP_WAIT} for each. A thread
   * that does not stop is abandoned, not killed: it is a daemon thread and its writes are fenced.
   */
  void stop(Role... roles) {
    List<ScheduledExecutorService> stopping = new ArrayList<>();
    for (Role role : roles) {
      get(role)
          .ifPresent(
              thread -> {
                thread.shutdownNow();
                stopping.add(thread);
              });
    }
    for (ScheduledExecutorService thread : stopping) {
      try {
        if (!thread.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.warn(
              "node {}: a thread did not stop within {}; abandoning it", nodeId.get(), STOP_WAIT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
