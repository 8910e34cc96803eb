package io.tenure.inmemory;

import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The leader lease in memory. No session lock: failover waits for expiry, and a take-over finds the
 * record only where a test put it there.
 */
final class InMemoryLeaseStore implements LeaseStore {
  private final InMemoryStore store;

  InMemoryLeaseStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public Optional<Lease> acquire(String nodeId, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      boolean mine = nodeId.equals(t.leaseHolder);
      if (!mine && t.leaseExpiresAt.isAfter(now)) {
        return Optional.empty();
      }
      if (!mine) {
        t.leaseEpoch++;
        t.leaseHolder = nodeId;
        t.leaseAcquiredAt = now;
      }
      t.leaseExpiresAt = now.plus(ttl);
      t.leaseLockEpoch = 0;
      return Optional.of(lease(t, now));
    }
  }

  @Override
  public Optional<Lease> renew(String nodeId, long epoch, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!nodeId.equals(t.leaseHolder) || t.leaseEpoch != epoch) {
        return Optional.empty();
      }
      Instant now = store.now();
      t.leaseExpiresAt = now.plus(ttl);
      return Optional.of(lease(t, now));
    }
  }

  @Override
  public boolean release(String nodeId, long epoch) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      if (!isCurrent(t, new LeaderFence(nodeId, epoch), now)) {
        return false;
      }
      t.leaseExpiresAt = now;
      return true;
    }
  }

  @Override
  public boolean recordSessionLock(String nodeId, long epoch) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!isCurrent(t, new LeaderFence(nodeId, epoch), store.now())) {
        return false;
      }
      t.leaseLockEpoch = epoch;
      return true;
    }
  }

  @Override
  public Optional<Lease> takeOver(
      String nodeId, String observedHolder, long observedEpoch, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (!observedHolder.equals(t.leaseHolder)
          || t.leaseEpoch != observedEpoch
          || t.leaseLockEpoch != observedEpoch) {
        return Optional.empty();
      }
      t.leaseLockEpoch = 0;
      Instant now = store.now();
      t.leaseEpoch++;
      t.leaseHolder = nodeId;
      t.leaseAcquiredAt = now;
      t.leaseExpiresAt = now.plus(ttl);
      return Optional.of(lease(t, now));
    }
  }

  @Override
  public Lease read() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return lease(t, store.now());
    }
  }

  @Override
  public boolean isCurrent(LeaderFence fence) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return isCurrent(t, fence, store.now());
    }
  }

  @Override
  public Optional<SessionLock> sessionLock() {
    return Optional.empty();
  }

  /** The fence check every fenced in-memory write makes, under the tables' monitor. */
  static boolean isCurrent(ClusterTables t, LeaderFence fence, Instant now) {
    return Objects.equals(fence.nodeId(), t.leaseHolder)
        && fence.epoch() == t.leaseEpoch
        && t.leaseExpiresAt.isAfter(now);
  }

  private static Lease lease(ClusterTables t, Instant now) {
    return new Lease(
        t.leaseHolder,
        t.leaseEpoch,
        t.leaseExpiresAt,
        t.leaseAcquiredAt,
        now,
        t.leaseHolder != null && t.leaseLockEpoch == t.leaseEpoch);
  }
}
