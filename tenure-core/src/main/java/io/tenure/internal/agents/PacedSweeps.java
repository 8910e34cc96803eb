package io.tenure.internal.agents;

import io.tenure.Ticker;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Runs the node's sweep on one thread when its {@link SweepPacer} says: one sweep at a time, each
 * scheduled when the previous one ends, brought forward by {@link #wake()}. The thread belongs to
 * the caller, who stops it; once it is shut down nothing more is scheduled.
 */
public final class PacedSweeps {
  private final ScheduledExecutorService thread;
  private final SweepPacer pacer;
  private final Ticker ticker;
  private final IntUnaryOperator sweep;
  // Guarded by this.
  private @Nullable ScheduledFuture<?> next;
  private long nextAt;
  private boolean sweeping;

  /**
   * @param thread runs the sweeps; must be the ticker's clock ({@code System.nanoTime})
   * @param sweep one sweep: given the most actions it may take, returns how many it took
   */
  public PacedSweeps(
      ScheduledExecutorService thread,
      java.time.Duration interval,
      int cap,
      Ticker ticker,
      IntUnaryOperator sweep) {
    this.thread = thread;
    this.pacer = new SweepPacer(interval, cap);
    this.ticker = ticker;
    this.sweep = sweep;
  }

  /** Runs the first sweep at once. */
  public synchronized void start() {
    schedule(ticker.read());
  }

  /**
   * Placements were announced: brings the next sweep forward as far as the pacer allows. Cheap and
   * safe on any thread; wake-ups heard during a sweep lead to one more after it.
   */
  public synchronized void wake() {
    pacer.wake();
    if (sweeping || next == null) {
      return; // the sweep in progress schedules the next one when it ends
    }
    long at = pacer.nextAt(ticker.read());
    if (at < nextAt && next.cancel(false)) {
      schedule(at);
    }
  }

  private void run() {
    long begin;
    int allowance;
    synchronized (this) {
      sweeping = true;
      begin = ticker.read();
      allowance = pacer.begin(begin);
    }
    // A sweep that fails counts as having taken all it was allowed: the cap errs on the safe side.
    int actions = allowance;
    try {
      actions = sweep.applyAsInt(allowance);
    } finally {
      synchronized (this) {
        sweeping = false;
        long end = ticker.read();
        pacer.ended(begin, end, actions);
        schedule(pacer.nextAt(end));
      }
    }
  }

  private void schedule(long at) {
    nextAt = at;
    try {
      next = thread.schedule(this::run, Math.max(0, at - ticker.read()), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      next = null; // the node is stopping
    }
  }
}
