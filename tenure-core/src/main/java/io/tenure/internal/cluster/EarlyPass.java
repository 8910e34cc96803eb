package io.tenure.internal.cluster;

import io.tenure.internal.cluster.NodeThreads.Role;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A leader tick run between the regular ones, on the leader's thread, when a pass has work before
 * the next regular tick (see {@code AgentRuntime.leaderPass}). At most one is pending: a sooner one
 * replaces it, a later one is left to the pending one's pass, which asks again.
 */
final class EarlyPass {
  private final NodeThreads threads;
  private final Runnable tick;

  // Guarded by this.
  private @Nullable ScheduledFuture<?> pending;
  private long pendingAt;

  EarlyPass(NodeThreads threads, Runnable tick) {
    this.threads = threads;
    this.tick = tick;
  }

  /**
   * @param at when to run, on {@code System.nanoTime}'s clock (the scheduler's)
   */
  synchronized void scheduleAt(long at) {
    if (pending != null && !pending.isDone() && pendingAt <= at) {
      return;
    }
    if (pending != null) {
      pending.cancel(false);
    }
    pendingAt = at;
    pending =
        threads
            .get(Role.LEADER)
            .map(
                thread -> {
                  try {
                    return thread.schedule(
                        () -> {
                          began(at);
                          threads.guarded(Role.LEADER, tick);
                        },
                        Math.max(0, at - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                  } catch (RejectedExecutionException e) {
                    return null; // the node is stopping
                  }
                })
            .orElse(null);
  }

  /** The pass asks for the next one while it runs: it is no longer pending. */
  private synchronized void began(long at) {
    if (pendingAt == at) {
      pending = null;
    }
  }
}
