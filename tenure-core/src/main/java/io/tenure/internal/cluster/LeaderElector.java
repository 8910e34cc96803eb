package io.tenure.internal.cluster;

import io.tenure.ClusterEvent;
import io.tenure.DemotionReason;
import io.tenure.NodeSettings;
import io.tenure.Ticker;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acquires and renews the leader lease and demotes at every edge (SPEC §4).
 *
 * <p>Trust window: a renewal that succeeds is trusted from the time <em>before</em> it was sent, so
 * the node believes it leads only until {@code renewStart + fenceAfter} on its monotonic clock,
 * never from the time the reply arrived. {@code fenceAfter < leaseTtl} leaves the difference as a
 * safety margin for clock rates. Past the deadline {@link #isLeader()} is false and the demotion
 * fires, whether the watchdog or a caller notices first.
 *
 * <p>Where the store has a session lock (every database provider), a second window applies once the
 * leader has promised candidates that it holds that lock ({@link SessionLockWatch}): it trusts
 * itself only until {@link LockTiming#lockTrust} after the start of its last check that found the
 * lock held without a break. A candidate that finds the lock free waits longer than that before it
 * takes the lease over, so the two never lead at once, even when the old leader was paused while
 * its session was killed.
 */
final class LeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);
  static final long NEVER = Long.MIN_VALUE;

  private final LeaseStore leases;
  private final NodeSettings settings;
  private final Ticker ticker;
  private final Supplier<String> nodeId;
  private final Listeners listeners;
  private final History history;
  private final long fenceAfterNanos;
  private final long acquireDelayNanos;
  private final long lockTrustNanos;
  private final @Nullable SessionLockWatch lockWatch;

  // Guarded by this.
  private boolean shutDown;
  private boolean leader;
  private long epoch;
  private long renewStartedAt = NEVER;
  private long acquirableSince = NEVER;

  /**
   * No acquire before this (monotonic): after losing the lock, the candidate that took it goes
   * first.
   */
  private long holdOffUntil = NEVER;

  /** A stale acquire's lease being released: no promotion at that epoch, or it would expire. */
  private long releasingEpoch = NEVER;

  /** While leader: candidates may rely on this node's session lock, so trust needs lock checks. */
  private boolean lockPromised;

  /** The start of the last check that found the session lock held without a break. */
  private long lockConfirmedAt = NEVER;

  LeaderElector(
      LeaseStore leases,
      NodeSettings settings,
      Ticker ticker,
      Supplier<String> nodeId,
      Listeners listeners,
      History history) {
    this.leases = leases;
    this.settings = settings;
    this.ticker = ticker;
    this.nodeId = nodeId;
    this.listeners = listeners;
    this.history = history;
    this.fenceAfterNanos = settings.fenceAfter().toNanos();
    this.acquireDelayNanos = settings.acquireDelay().toNanos();
    this.lockTrustNanos = LockTiming.lockTrust(settings).toNanos();
    LeaseStore.SessionLock lock = settings.promotable() ? leases.sessionLock().orElse(null) : null;
    this.lockWatch =
        lock == null ? null : new SessionLockWatch(this, lock, leases, settings, ticker, nodeId);
  }

  /**
   * @return the session lock's watch, to tick every {@link LockTiming#lockInterval}; empty where
   *     the store has no session lock or the node never leads
   */
  Optional<SessionLockWatch> lockWatch() {
    return Optional.ofNullable(lockWatch);
  }

  /** One election step: renew while leader, else try to become leader. Called on one thread. */
  void tick() {
    if (!settings.promotable()) {
      stepDownIfHolding();
      return;
    }
    long start = ticker.read();
    long heldEpoch;
    synchronized (this) {
      if (shutDown) {
        return;
      }
      heldEpoch = leaderAt(start);
    }
    if (heldEpoch != NEVER) {
      renew(start, heldEpoch);
    } else {
      compete(start);
    }
  }

  /**
   * A node that must not lead yet holds the lease (a test, an operator, an old setting) lets it go
   * at once, so that a node that may lead need not wait for it to expire.
   */
  private void stepDownIfHolding() {
    String me = nodeId.get();
    Lease lease = leases.read();
    if (lease.heldBy(me) && leases.release(me, lease.epoch())) {
      LOG.warn(
          "node {} may not lead but held the lease at epoch {}; released it", me, lease.epoch());
    }
  }

  private void renew(long start, long heldEpoch) {
    Optional<Lease> renewed = leases.renew(nodeId.get(), heldEpoch, settings.leaseTtl());
    renewed(start, heldEpoch, renewed.isPresent());
  }

  /** Applies a renewal's result: trusted from {@code start}, or superseded. */
  synchronized void renewed(long start, long heldEpoch, boolean held) {
    if (!leader || epoch != heldEpoch) {
      return;
    }
    if (held) {
      // Two threads renew (the elector, and the lock watch after re-taking the lock): keep the
      // later.
      renewStartedAt = Math.max(renewStartedAt, start);
    } else {
      demoteLocked(DemotionReason.SUPERSEDED);
    }
  }

  private void compete(long start) {
    String me = nodeId.get();
    Lease lease = leases.read();
    if (lockWatch != null) {
      lockWatch.seen(lease);
    }
    if (lease.live() && !me.equals(lease.holder())) {
      notTakeable();
      return; // a take-over through the session lock is the lock watch's
    }
    acquire(start);
  }

  /** Acquires the lease if free, expired or already this node's, once the acquire delay allows. */
  void acquire(long start) {
    if (delayElapsed(start)) {
      leases
          .acquire(nodeId.get(), settings.leaseTtl())
          .ifPresent(acquired -> promoteAcquired(start, acquired));
    }
  }

  /**
   * An acquire sent before {@link #lockLost} demoted this node ({@code start < holdOffUntil};
   * {@link #delayElapsed} refuses a later start) may land after lockLost's release: leading on it
   * would be leading on an expired lease (finding F1, docs/MODEL.md). It is not promoted, and
   * released at once, conditional on this node and epoch, so the candidate need not wait for the
   * expiry.
   */
  private void promoteAcquired(long start, Lease lease) {
    if (promote(start, lease, true)) {
      return;
    }
    try {
      leases.release(nodeId.get(), lease.epoch());
    } catch (RuntimeException e) {
      LOG.warn("node {}: the stale lease expires on its own: {}", nodeId.get(), e.toString());
    } finally {
      synchronized (this) {
        releasingEpoch = NEVER;
      }
    }
  }

  /**
   * The acquire delay counts from when this node first saw the lease free or expired, on the
   * monotonic clock. A node that just lost its session lock waits a lease TTL as well.
   */
  private synchronized boolean delayElapsed(long start) {
    if (holdOffUntil != NEVER && start < holdOffUntil) {
      return false;
    }
    if (acquirableSince == NEVER) {
      acquirableSince = start;
    }
    return start - acquirableSince >= acquireDelayNanos;
  }

  private synchronized void notTakeable() {
    acquirableSince = NEVER;
  }

  void promote(long start, Lease lease) {
    promote(start, lease, false);
  }

  /**
   * @return false if the caller must release the acquired lease (see {@link #promoteAcquired})
   */
  private boolean promote(long start, Lease lease, boolean acquired) {
    synchronized (this) {
      if (leader && epoch == lease.epoch()) {
        return true; // both threads acquired the same lease
      }
      // The same monitor sets the hold-off: no lockLost slips in between the check and the leading.
      boolean stale = acquired && holdOffUntil != NEVER && start < holdOffUntil;
      if (stale || lease.epoch() == releasingEpoch) {
        LOG.info(
            "node {} does not lead at epoch {}: it lost its lock", nodeId.get(), lease.epoch());
        releasingEpoch = stale ? lease.epoch() : releasingEpoch;
        return !stale; // a release of this epoch is in flight already
      }
      if (shutDown) {
        // Acquired by a tick that began before shutdown: keep it only until the step-down.
        LOG.info("node {} acquired the lease while shutting down; it steps down", nodeId.get());
      }
      leader = true;
      epoch = lease.epoch();
      renewStartedAt = start;
      acquirableSince = NEVER;
      lockPromised = false;
      lockConfirmedAt = NEVER;
      LOG.info("node {} became leader at epoch {}", nodeId.get(), epoch);
      listeners.fire("promotion", l -> l.onPromoted(lease.epoch()));
    }
    history.record(ClusterEvent.Kind.LEADER_ACQUIRED, nodeId.get(), lease.epoch(), "became leader");
    return true;
  }

  /**
   * A check found the session lock held without a break: trusted from {@code start}, and from now
   * on this node's trust needs such checks (candidates may rely on the lock).
   *
   * @return false if the node no longer leads at {@code heldEpoch}
   */
  synchronized boolean lockConfirmed(long start, long heldEpoch) {
    if (!leader || epoch != heldEpoch) {
      return false;
    }
    lockPromised = true;
    lockConfirmedAt = Math.max(lockConfirmedAt, start);
    return true;
  }

  /**
   * Another session holds the lock this node promised: a candidate may take the lease over once it
   * has waited out {@link LockTiming#lockTrust}, so step down now and let it acquire at once.
   */
  void lockLost(long heldEpoch) {
    synchronized (this) {
      if (!leader || epoch != heldEpoch || !lockPromised) {
        return;
      }
      LOG.warn(
          "node {}: another session holds the leader's session lock at epoch {}",
          nodeId.get(),
          heldEpoch);
      demoteLocked(DemotionReason.LOCK_LOST);
      holdOffUntil = ticker.read() + settings.leaseTtl().toNanos();
    }
    String me = nodeId.get();
    try {
      leases.release(me, heldEpoch);
    } catch (RuntimeException e) {
      LOG.warn(
          "node {} could not release the lease at epoch {} after losing its session lock; a candidate"
              + " takes it over: {}",
          me,
          heldEpoch,
          e.toString());
    }
  }

  /**
   * @return the epoch this node leads at, or {@link #NEVER}: leading in its own state, whether or
   *     not it can prove it right now (see {@link #isLeader()})
   */
  synchronized long leadingEpoch() {
    return leaderAt(ticker.read());
  }

  /** The watchdog: demotes once the trust window has passed. Cheap; called often. */
  void checkFence() {
    isLeader();
  }

  /**
   * @return true while leader within the trust windows; demotes (once) when the renewal window has
   *     passed. While a leader cannot prove it still holds its promised session lock (a check is
   *     overdue: after a pause, or a slow database) it answers false without demoting, and true
   *     again once a check finds the lock held without a break.
   */
  synchronized boolean isLeader() {
    long now = ticker.read();
    return leaderAt(now) != NEVER && (!lockPromised || now - lockConfirmedAt <= lockTrustNanos);
  }

  /** Demotes past the renewal window; returns the epoch still led, or {@link #NEVER}. */
  private long leaderAt(long now) {
    if (!leader) {
      return NEVER;
    }
    if (now - renewStartedAt > fenceAfterNanos) {
      demoteLocked(DemotionReason.SELF_FENCE);
      return NEVER;
    }
    return epoch;
  }

  synchronized Optional<LeaderFence> fence() {
    return isLeader() ? Optional.of(new LeaderFence(nodeId.get(), epoch)) : Optional.empty();
  }

  /** Demotes now, if leader, for {@code reason}. */
  synchronized void demote(DemotionReason reason) {
    if (leader) {
      demoteLocked(reason);
    }
  }

  private void demoteLocked(DemotionReason reason) {
    leader = false;
    lockPromised = false;
    long lost = epoch;
    if (reason == DemotionReason.STEP_DOWN) {
      LOG.info("node {} stepped down as leader at epoch {}", nodeId.get(), lost);
    } else {
      LOG.warn("node {} stopped being leader at epoch {}: {}", nodeId.get(), lost, reason);
    }
    listeners.fire("demotion", l -> l.onDemoted(lost, reason));
    if (lockWatch != null) {
      lockWatch.letGo();
    }
    history.record(ClusterEvent.Kind.LEADER_LOST, nodeId.get(), lost, reason.name());
  }

  /**
   * Stops further election ticks from acquiring; the caller then stops the thread and steps down.
   */
  synchronized void shutdown() {
    shutDown = true;
  }

  synchronized boolean isShutDown() {
    return shutDown;
  }

  /** Clean step-down: demote, then expire the lease so a successor acquires at once. */
  void stepDown(String holderId) {
    long held;
    synchronized (this) {
      if (!leader) {
        return;
      }
      held = epoch;
      demoteLocked(DemotionReason.STEP_DOWN);
    }
    try {
      leases.release(holderId, held);
    } catch (RuntimeException e) {
      LOG.warn(
          "node {} could not release the lease at epoch {}; it expires on its own: {}",
          holderId,
          held,
          e.toString());
    }
  }

  /** Closes the session lock; call after the lock watch's thread has stopped. */
  void close() {
    if (lockWatch != null) {
      lockWatch.close();
    }
  }
}
