package io.tenure.internal.cluster;

import io.tenure.NodeSettings;
import io.tenure.Ticker;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.LeaseStore.SessionLock.Hold;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fast fail-over through the store's session lock (SPEC §4.7), on a thread of its own that ticks
 * every {@link LockTiming#lockInterval}; the only user of the lock.
 *
 * <p>As leader, it checks the lock on every tick; the first check that finds it held records the
 * lock in the lease ({@link LeaseStore#recordSessionLock}), after which the leader trusts itself
 * only {@link LockTiming#lockTrust} past its last such check. A check that finds another session
 * holding the lock steps the leader down at once.
 *
 * <p>As candidate, it tries the lock only while the lease's holder has recorded it, and a free lock
 * then means the holder's session is gone. It keeps the lock and waits longer than the holder's
 * lock trust ({@link #takeOverWait}): by then a live holder has noticed and stepped down, a paused
 * one no longer trusts itself, and a crashed one is gone. Then it takes the lease over, conditional
 * on the same holder, epoch and record. A holder that never recorded the lock (it took the lease at
 * expiry while a frozen predecessor still held the lock) is never taken over this way.
 */
final class SessionLockWatch {
  private static final Logger LOG = LoggerFactory.getLogger(SessionLockWatch.class);
  private static final long NEVER = LeaderElector.NEVER;

  private final LeaderElector elector;
  private final LeaseStore.SessionLock lock;
  private final LeaseStore leases;
  private final NodeSettings settings;
  private final Ticker ticker;
  private final Supplier<String> nodeId;
  private final long takeOverWaitNanos;
  private final long tryEveryNanos;
  private final long acquireDelayNanos;

  /**
   * Set by a demotion (any thread): the next tick starts over as a candidate, letting go of the
   * lock.
   */
  private volatile boolean letGo;

  /** The lease last read by either thread. */
  private volatile @Nullable Lease seen;

  // The lock thread's own state.
  /** The epoch whose lock record is in the store; 0 for none. */
  private long recordedEpoch;

  /**
   * The lock was last TAKEN and no renewal has proven since that nobody took the lease over in
   * between: until one does, a KEPT proves only that the lock stayed ours since the re-take.
   */
  private boolean unproven;

  /** The lease this candidate holds the lock to take over, and since when (after the reply). */
  private @Nullable Lease waitingOn;

  private long heldSince = NEVER;
  private long lastTry = NEVER;
  private long freeSince = NEVER;

  SessionLockWatch(
      LeaderElector elector,
      LeaseStore.SessionLock lock,
      LeaseStore leases,
      NodeSettings settings,
      Ticker ticker,
      Supplier<String> nodeId) {
    this.elector = elector;
    this.lock = lock;
    this.leases = leases;
    this.settings = settings;
    this.ticker = ticker;
    this.nodeId = nodeId;
    long interval = LockTiming.lockInterval(settings).toNanos();
    this.takeOverWaitNanos = LockTiming.lockTrust(settings).toNanos() + interval;
    // Candidates try half as often as the leader checks: a standby's poll costs the database too.
    this.tryEveryNanos = 2 * interval;
    this.acquireDelayNanos = settings.acquireDelay().toNanos();
  }

  /** How long a candidate holds the free lock before it takes the lease over. */
  long takeOverWait() {
    return takeOverWaitNanos;
  }

  /** The elector read {@code lease}: what candidates decide from between their own reads. */
  void seen(Lease lease) {
    this.seen = lease;
  }

  /** A demotion happened: let go of the lock on the next tick. Never blocks. */
  void letGo() {
    letGo = true;
  }

  /** One step, on the lock thread. */
  void tick() {
    if (elector.isShutDown()) {
      return;
    }
    long start = ticker.read();
    long heldEpoch = elector.leadingEpoch();
    if (heldEpoch != NEVER) {
      if (letGo) {
        letGo = false;
        recordedEpoch = 0; // demoted and promoted again since the last tick: record anew
      }
      forgetCandidacy();
      keep(start, heldEpoch);
      return;
    }
    if (letGo) {
      letGo = false;
      recordedEpoch = 0;
      forgetCandidacy();
    }
    if (waitingOn != null) {
      waitForTakeOver(start);
    } else {
      lock.release(); // a candidate that is not about to take over holds nothing (a no-op if not
      // held)
      watch(start);
    }
  }

  /** As leader: check the lock, record it once, and step down if another session holds it. */
  private void keep(long start, long heldEpoch) {
    switch (lock.hold()) {
      case KEPT -> {
        // After a TAKEN whose renewal failed (its answer lost), the lock may have been re-taken
        // after a take-over: renew first (finding F2, docs/MODEL.md).
        if (!unproven || renewal(start, heldEpoch)) {
          confirm(start, heldEpoch);
        }
      }
      case TAKEN -> {
        // Not held before, or lost and ours again. A take-over in between would have bumped the
        // epoch: a renewal at this epoch proves there was none, and only then does this check
        // count.
        unproven = true;
        if (renewal(start, heldEpoch)) {
          confirm(start, heldEpoch);
        }
      }
      case REFUSED -> elector.lockLost(heldEpoch);
      case UNAVAILABLE -> {} // the trust windows lapse on their own
    }
  }

  private boolean renewal(long start, long heldEpoch) {
    try {
      boolean held = leases.renew(nodeId.get(), heldEpoch, settings.leaseTtl()).isPresent();
      elector.renewed(start, heldEpoch, held);
      unproven = unproven && !held;
      return held;
    } catch (RuntimeException e) {
      LOG.debug(
          "node {}: renewal after re-taking the session lock failed: {}",
          nodeId.get(),
          e.toString());
      return false;
    }
  }

  private void confirm(long start, long heldEpoch) {
    if (!elector.lockConfirmed(start, heldEpoch) || recordedEpoch == heldEpoch) {
      return;
    }
    try {
      if (leases.recordSessionLock(nodeId.get(), heldEpoch)) {
        recordedEpoch = heldEpoch;
      } else {
        elector.renewed(start, heldEpoch, false); // the lease moved on
      }
    } catch (RuntimeException e) {
      LOG.debug("node {}: could not record the session lock yet: {}", nodeId.get(), e.toString());
    }
  }

  /** As candidate: try the lock while the holder has recorded it. */
  private void watch(long start) {
    Lease lease = seen;
    String me = nodeId.get();
    if (lease == null
        || !lease.live()
        || lease.holder() == null
        || me.equals(lease.holder())
        || !lease.sessionLocked()
        || (lastTry != NEVER && start - lastTry < tryEveryNanos)) {
      return;
    }
    lastTry = start;
    Hold hold = lock.hold();
    if (hold != Hold.TAKEN && hold != Hold.KEPT) {
      freeSince = NEVER;
      return;
    }
    long held = ticker.read();
    if (freeSince == NEVER) {
      freeSince = start;
    }
    if (start - freeSince < acquireDelayNanos) {
      lock.release(); // let a preferred node take the lock and the lease
      return;
    }
    LOG.info(
        "node {}: the session lock of leader {} (epoch {}) is free; taking over in {} ms unless it steps"
            + " down",
        me,
        lease.holder(),
        lease.epoch(),
        takeOverWaitNanos / 1_000_000);
    waitingOn = lease;
    heldSince = held;
  }

  /** Holding the lock: take the lease over once the wait is out, if nothing changed. */
  private void waitForTakeOver(long start) {
    Lease observed = waitingOn;
    Hold hold = lock.hold();
    if (hold == Hold.TAKEN) {
      heldSince = ticker.read(); // lost and taken again: the wait starts over
      return;
    }
    if (hold != Hold.KEPT) {
      forgetCandidacy();
      return;
    }
    Lease now;
    try {
      now = leases.read();
    } catch (RuntimeException e) {
      return; // keep waiting; the checks repeat next tick
    }
    seen = now;
    if (!now.live()) {
      elector.acquire(start); // the holder stepped down: take it as anyone may
      return;
    }
    boolean same =
        observed.holder().equals(now.holder())
            && observed.epoch() == now.epoch()
            && now.sessionLocked();
    if (!same) {
      lock.release();
      forgetCandidacy();
      return;
    }
    if (ticker.read() - heldSince < takeOverWaitNanos) {
      return;
    }
    Optional<Lease> taken =
        leases.takeOver(nodeId.get(), observed.holder(), observed.epoch(), settings.leaseTtl());
    forgetCandidacy();
    if (taken.isPresent()) {
      LOG.info(
          "node {} took the lease over from {} (epoch {}), whose session lock was free",
          nodeId.get(),
          observed.holder(),
          observed.epoch());
      elector.promote(start, taken.get());
    } else {
      lock.release();
    }
  }

  private void forgetCandidacy() {
    waitingOn = null;
    heldSince = NEVER;
    freeSince = NEVER;
  }

  void close() {
    lock.close();
  }
}
