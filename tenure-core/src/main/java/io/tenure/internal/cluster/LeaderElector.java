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
 */
final class LeaderElector {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);
  private static final long NEVER = Long.MIN_VALUE;

  private final LeaseStore leases;
  private final NodeSettings settings;
  private final Ticker ticker;
  private final Supplier<String> nodeId;
  private final Listeners listeners;
  private final History history;
  private final long fenceAfterNanos;
  private final long acquireDelayNanos;
  private final long takeOverGraceNanos;
  private final LeaseStore.@Nullable SessionLock sessionLock;

  // Guarded by this.
  private boolean shutDown;
  private boolean leader;
  private long epoch;
  private long renewStartedAt = NEVER;
  private long acquirableSince = NEVER;

  LeaderElector(
      LeaseStore leases, NodeSettings settings, Ticker ticker, Supplier<String> nodeId,
      Listeners listeners, History history) {
    this.leases = leases;
    this.settings = settings;
    this.ticker = ticker;
    this.nodeId = nodeId;
    this.listeners = listeners;
    this.history = history;
    this.fenceAfterNanos = settings.fenceAfter().toNanos();
    this.acquireDelayNanos = settings.acquireDelay().toNanos();
    // A live leader takes the session lock within a renew interval of acquiring the lease; until
    // then, holding the lock proves nothing about it.
    this.takeOverGraceNanos = settings.renewInterval().multipliedBy(2).toNanos();
    this.sessionLock = settings.promotable() ? leases.sessionLock().orElse(null) : null;
  }

  /** One election step: renew while leader, else try to become leader. Called on one thread. */
  void tick() {
    if (!settings.promotable()) {
      return;
    }
    long start = ticker.read();
    long heldEpoch;
    synchronized (this) {
      if (shutDown) {
        return;
      }
      heldEpoch = isLeaderLocked(start) ? epoch : NEVER;
    }
    if (heldEpoch != NEVER) {
      renew(start, heldEpoch);
    } else {
      compete(start);
    }
  }

  private void renew(long start, long heldEpoch) {
    Optional<Lease> renewed = leases.renew(nodeId.get(), heldEpoch, settings.leaseTtl());
    synchronized (this) {
      if (!leader || epoch != heldEpoch) {
        return;
      }
      if (renewed.isPresent()) {
        renewStartedAt = start;
      } else {
        demoteLocked(DemotionReason.SUPERSEDED);
      }
    }
    holdSessionLock();
  }

  private void compete(long start) {
    String me = nodeId.get();
    Lease lease = leases.read();
    if (lease.live() && !me.equals(lease.holder())) {
      tryTakeOverFromGoneHolder(start, lease);
      return;
    }
    if (delayElapsed(start)) {
      leases.acquire(me, settings.leaseTtl()).ifPresent(acquired -> promote(start, acquired));
    }
  }

  /**
   * The acquire delay counts from when this node first saw the lease takeable (free, expired, or
   * its holder's session gone), on the monotonic clock, and applies to both ways of taking it.
   */
  private synchronized boolean delayElapsed(long start) {
    if (acquirableSince == NEVER) {
      acquirableSince = start;
    }
    return start - acquirableSince >= acquireDelayNanos;
  }

  private synchronized void notTakeable() {
    acquirableSince = NEVER;
  }

  /**
   * Fast failover (PostgreSQL): a candidate that can take the session lock knows the holder's
   * session ended, and takes the lease over by compare-and-swap on the holder and epoch it saw. The
   * epoch guard keeps this safe even if it guessed wrong: the deposed holder's writes are refused.
   */
  private void tryTakeOverFromGoneHolder(long start, Lease lease) {
    if (sessionLock == null || lease.holder() == null || !sessionLock.tryHold()) {
      notTakeable();
      return;
    }
    Lease current = leases.read();
    boolean sameLease = lease.holder().equals(current.holder()) && lease.epoch() == current.epoch();
    if (!sameLease || !current.live() || !heldLongEnough(current)) {
      sessionLock.release();
      notTakeable();
      return;
    }
    if (!delayElapsed(start)) {
      // Let go while waiting, so that a preferred node can take the lock and the lease.
      sessionLock.release();
      return;
    }
    Optional<Lease> taken = leases.takeOver(nodeId.get(), lease.holder(), lease.epoch(), settings.leaseTtl());
    if (taken.isPresent()) {
      LOG.info("node {} took the lease over from {} (epoch {}), whose session lock was free",
          nodeId.get(), lease.holder(), lease.epoch());
      promote(start, taken.get());
    } else {
      sessionLock.release();
    }
  }

  /** Measured on the database clock from acquisition, which renewals do not move. */
  private boolean heldLongEnough(Lease lease) {
    java.time.Instant acquiredAt = lease.acquiredAt();
    return acquiredAt != null
        && java.time.Duration.between(acquiredAt, lease.readAt()).toNanos() >= takeOverGraceNanos;
  }

  private void holdSessionLock() {
    if (sessionLock != null && isLeader()) {
      sessionLock.tryHold();
    }
  }

  private void promote(long start, Lease lease) {
    synchronized (this) {
      if (shutDown) {
        // Acquired by a tick that began before shutdown: keep it only until the step-down.
        LOG.info("node {} acquired the lease while shutting down; it steps down", nodeId.get());
      }
      leader = true;
      epoch = lease.epoch();
      renewStartedAt = start;
      acquirableSince = NEVER;
      LOG.info("node {} became leader at epoch {}", nodeId.get(), epoch);
      listeners.fire("promotion", l -> l.onPromoted(lease.epoch()));
    }
    history.record(ClusterEvent.Kind.LEADER_ACQUIRED, nodeId.get(), lease.epoch(), "became leader");
    holdSessionLock();
  }

  /** The watchdog: demotes once the trust window has passed. Cheap; called often. */
  void checkFence() {
    isLeader();
  }

  /**
   * @return true while leader within the trust window; demotes (once) when the window has passed
   */
  synchronized boolean isLeader() {
    return isLeaderLocked(ticker.read());
  }

  private boolean isLeaderLocked(long now) {
    if (!leader) {
      return false;
    }
    if (now - renewStartedAt > fenceAfterNanos) {
      demoteLocked(DemotionReason.SELF_FENCE);
      return false;
    }
    return true;
  }

  synchronized Optional<LeaderFence> fence() {
    return isLeaderLocked(ticker.read()) ? Optional.of(new LeaderFence(nodeId.get(), epoch)) : Optional.empty();
  }

  /** Demotes now, if leader, for {@code reason}. */
  synchronized void demote(DemotionReason reason) {
    if (leader) {
      demoteLocked(reason);
    }
  }

  private void demoteLocked(DemotionReason reason) {
    leader = false;
    long lost = epoch;
    if (reason == DemotionReason.STEP_DOWN) {
      LOG.info("node {} stepped down as leader at epoch {}", nodeId.get(), lost);
    } else {
      LOG.warn("node {} stopped being leader at epoch {}: {}", nodeId.get(), lost, reason);
    }
    listeners.fire("demotion", l -> l.onDemoted(lost, reason));
    if (sessionLock != null) {
      sessionLock.release();
    }
    history.record(ClusterEvent.Kind.LEADER_LOST, nodeId.get(), lost, reason.name());
  }

  /** Stops further election ticks from acquiring; the caller then stops the thread and steps down. */
  synchronized void shutdown() {
    shutDown = true;
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
      LOG.warn("node {} could not release the lease at epoch {}; it expires on its own: {}",
          holderId, held, e.toString());
    }
  }

  void close() {
    if (sessionLock != null) {
      sessionLock.close();
    }
  }
}
