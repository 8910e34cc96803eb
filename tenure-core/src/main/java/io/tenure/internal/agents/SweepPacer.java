package io.tenure.internal.agents;

import java.time.Duration;
import java.util.ArrayDeque;

/**
 * When the node's sweep runs and how many actions it may take (SPEC §5.4), as a function of the
 * sweeps so far and the wake-ups heard; times are a monotonic clock's nanoseconds, passed in.
 *
 * <p>A sweep begins one {@code agentSweepInterval} after the previous one began (at a fixed rate,
 * so a backlog's second sweep does not also wait for the first one's duration), or a tenth of an
 * interval after the previous one ended if that is later (a slow sweep is followed by a pause, not
 * by another at once). A wake-up (the leader placed agents) brings the next sweep forward, within
 * two bounds, so that wake-ups cannot turn the per-tick cap into a higher rate:
 *
 * <ul>
 *   <li>within any sweep interval a node takes at most {@code maxReconciliationsPerTick} actions,
 *       woken or not: a sweep may take the cap less the actions of the sweeps that began less than
 *       one interval before it, and a wake-up waits while that is nothing. An undisturbed sweep
 *       begins a whole interval after the previous one, so it always gets the whole cap;
 *   <li>a woken sweep, like any, begins at least a tenth of an interval after the previous one
 *       ended, so even a storm of wake-ups (or no cap at all) costs at most ten reads per interval.
 * </ul>
 *
 * Wake-ups heard while waiting or sweeping count once, and a sweep consumes those heard before it
 * began: it reads the rows they announced.
 */
final class SweepPacer {
  /**
   * Every sweep, woken or not, begins at least this fraction of an interval after the previous one
   * ended.
   */
  static final int MIN_GAP_DIVISOR = 10;

  private final long interval;
  private final long minGap;
  private final int cap;

  /** {begin, actions} of the sweeps that may still count against a later one, oldest first. */
  private final ArrayDeque<long[]> recent = new ArrayDeque<>();

  private boolean ran;
  private long lastBegin;
  private long lastEnd;
  private boolean woken;

  /**
   * @param cap {@code maxReconciliationsPerTick}; 0 or less means no cap
   */
  SweepPacer(Duration interval, int cap) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("agentSweepInterval must be positive, was " + interval);
    }
    this.interval = interval.toNanos();
    this.minGap = this.interval / MIN_GAP_DIVISOR;
    this.cap = cap;
  }

  /** A wake-up was heard: the placements it announces are worth a sweep before the next tick. */
  synchronized void wake() {
    woken = true;
  }

  /**
   * @return when the next sweep should begin; at or before {@code now} means at once
   */
  synchronized long nextAt(long now) {
    if (!ran) {
      return now;
    }
    long regular = Math.max(lastBegin + interval, lastEnd + minGap);
    if (!woken) {
      return regular;
    }
    long woke = Math.max(Math.max(now, lastEnd + minGap), freedAt(now));
    return Math.min(regular, woke);
  }

  /**
   * A sweep begins: it consumes the wake-ups heard so far.
   *
   * @return the most actions it may take; {@link Integer#MAX_VALUE} when there is no cap
   */
  synchronized int begin(long now) {
    woken = false;
    return allowance(now);
  }

  /**
   * A sweep that began at {@code begin} ended at {@code end} after taking {@code actions} actions.
   */
  synchronized void ended(long begin, long end, int actions) {
    if (actions < 0) {
      throw new IllegalArgumentException("a sweep cannot take " + actions + " actions");
    }
    ran = true;
    lastBegin = begin;
    lastEnd = end;
    recent.addLast(new long[] {begin, actions});
    forgetBefore(end);
  }

  private int allowance(long now) {
    if (cap <= 0) {
      return Integer.MAX_VALUE;
    }
    forgetBefore(now);
    long used = recent.stream().mapToLong(sweep -> sweep[1]).sum();
    return (int) Math.max(0, cap - used);
  }

  /** The first moment at or after {@code now} at which a sweep may take an action. */
  private long freedAt(long now) {
    if (allowance(now) > 0) {
      return now;
    }
    long used = recent.stream().mapToLong(sweep -> sweep[1]).sum();
    for (long[] sweep : recent) {
      used -= sweep[1];
      if (used < cap) {
        return sweep[0] + interval;
      }
    }
    throw new IllegalStateException("no sweep frees any of the cap, which indicates a bug");
  }

  /** Sweeps that began a whole interval or more before {@code now} no longer count. */
  private void forgetBefore(long now) {
    while (!recent.isEmpty() && recent.peekFirst()[0] <= now - interval) {
      recent.removeFirst();
    }
  }
}
