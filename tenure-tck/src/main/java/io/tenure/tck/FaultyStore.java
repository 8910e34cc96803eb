package io.tenure.tck;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A store whose heartbeats and lease calls can be made to fail, as when a node loses its database
 * or its process freezes: the node's own view of the cluster goes dark while the others carry on.
 * Its queue's resolves can fail too, before the write or after it (the reply lost).
 */
public final class FaultyStore implements Store {
  private final Store delegate;
  private final Membership membership;
  private final Leases leases;
  private final FaultyQueueStore queues;
  private volatile boolean heartbeatsDown;
  private volatile boolean leasesDown;
  private volatile boolean lockChecksDown;
  private volatile boolean lockFrozen;

  /** Held for the length of every call into the real session lock. */
  private final Object lockCalls = new Object();

  /**
   * @param delegate the real store
   */
  public FaultyStore(Store delegate) {
    this.delegate = delegate;
    this.membership = new Membership(delegate.membership());
    this.leases = new Leases(delegate.leases());
    this.queues = new FaultyQueueStore(delegate.queues());
  }

  /** The queue's resolve faults. */
  public FaultyQueueStore queueFaults() {
    return queues;
  }

  /** Makes every heartbeat fail, or work again. */
  public void heartbeatsDown(boolean down) {
    heartbeatsDown = down;
  }

  /** Makes every lease call fail, or work again. */
  public void leasesDown(boolean down) {
    leasesDown = down;
  }

  /**
   * Makes the session lock's checks answer {@code UNAVAILABLE} without reaching the lock, or work
   * again: the lock's session itself stays as it is, as when the node's lock thread stalls.
   */
  public void lockChecksDown(boolean down) {
    lockChecksDown = down;
    awaitLockCalls();
  }

  /**
   * Waits for a lock call already past its check of the flags: once a flag is set and this returns,
   * no call of the node's reaches the real lock (a check in flight could otherwise take the lock
   * again on a new session just after a test killed the old one).
   */
  private void awaitLockCalls() {
    synchronized (lockCalls) {
      // entered only once no lock call is in flight
    }
  }

  /**
   * Freezes the node's side of the store, as {@code SIGSTOP} freezes a process: heartbeats and
   * lease calls fail, and the session lock stays held by its open session (checks answer {@code
   * UNAVAILABLE}, releases do nothing), so no other session can take it until {@code thaw}.
   */
  public void freeze(boolean frozen) {
    lockFrozen = frozen;
    awaitLockCalls();
    heartbeatsDown(frozen);
    leasesDown(frozen);
  }

  /**
   * Cuts the node off from the database for heartbeats and the lease, as in a crash: its session
   * lock's connection is closed too, as the database sees when a process dies.
   */
  public void crash() {
    heartbeatsDown(true);
    leasesDown(true);
    leases.sessionLock.ifPresent(LeaseStore.SessionLock::close);
  }

  private static StoreUnavailableException down(String what) {
    return new StoreUnavailableException("injected fault: " + what + " is down", null);
  }

  @Override
  public StoreDescription describe() {
    return delegate.describe();
  }

  @Override
  public Instant now() {
    return delegate.now();
  }

  @Override
  public MarkerStore markers() {
    return delegate.markers();
  }

  @Override
  public MembershipStore membership() {
    return membership;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public EventStore events() {
    return delegate.events();
  }

  @Override
  public io.tenure.spi.AgentStore agents() {
    return delegate.agents();
  }

  @Override
  public io.tenure.spi.QueueStore queues() {
    return queues;
  }

  @Override
  public io.tenure.spi.LockStore locks() {
    return delegate.locks();
  }

  @Override
  public io.tenure.spi.ScheduleStore schedules() {
    return delegate.schedules();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private final class Membership implements MembershipStore {
    private final MembershipStore real;

    Membership(MembershipStore real) {
      this.real = real;
    }

    @Override
    public boolean heartbeat(String nodeId) {
      if (heartbeatsDown) {
        throw down("heartbeat");
      }
      return real.heartbeat(nodeId);
    }

    @Override
    public MembershipView read() {
      return real.read();
    }

    @Override
    public long version() {
      return real.version();
    }

    @Override
    public MembershipWrite join(NewNode node, long expectedVersion) {
      return real.join(node, expectedVersion);
    }

    @Override
    public MembershipWrite changeStatus(String nodeId, NodeStatus to, long expectedVersion) {
      return real.changeStatus(nodeId, to, expectedVersion);
    }

    @Override
    public MembershipWrite remove(String nodeId, long expectedVersion) {
      return real.remove(nodeId, expectedVersion);
    }

    @Override
    public MembershipWrite joinQueued(NewNode node) {
      return real.joinQueued(node);
    }

    @Override
    public MembershipWrite changeStatusQueued(String nodeId, NodeStatus to) {
      return real.changeStatusQueued(nodeId, to);
    }

    @Override
    public MembershipWrite removeQueued(String nodeId) {
      return real.removeQueued(nodeId);
    }

    @Override
    public List<NodeInfo> findStale(Duration staleAfter) {
      return real.findStale(staleAfter);
    }

    @Override
    public MembershipWrite declareDead(
        String nodeId, Duration staleAfter, long expectedVersion, LeaderFence fence) {
      if (leasesDown) {
        throw down("leader write");
      }
      return real.declareDead(nodeId, staleAfter, expectedVersion, fence);
    }

    @Override
    public List<NodeInfo> findDefunct(Duration olderThan, int limit) {
      return real.findDefunct(olderThan, limit);
    }

    @Override
    public int deleteDefunct(List<NodeInfo> rows, Duration olderThan, LeaderFence fence) {
      if (leasesDown) {
        throw down("leader write");
      }
      return real.deleteDefunct(rows, olderThan, fence);
    }
  }

  private final class Leases implements LeaseStore {
    private final LeaseStore real;
    private final Optional<SessionLock> sessionLock;

    Leases(LeaseStore real) {
      this.real = real;
      this.sessionLock =
          real.sessionLock()
              .map(
                  lock ->
                      new SessionLock() {
                        @Override
                        public Hold hold() {
                          synchronized (lockCalls) {
                            return leasesDown || lockChecksDown || lockFrozen
                                ? Hold.UNAVAILABLE
                                : lock.hold();
                          }
                        }

                        @Override
                        public void release() {
                          synchronized (lockCalls) {
                            if (!lockFrozen) {
                              lock.release();
                            }
                          }
                        }

                        @Override
                        public void close() {
                          lock.close();
                        }
                      });
    }

    private void check(String what) {
      if (leasesDown) {
        throw down(what);
      }
    }

    @Override
    public Optional<Lease> acquire(String nodeId, Duration ttl) {
      check("lease acquire");
      return real.acquire(nodeId, ttl);
    }

    @Override
    public Optional<Lease> renew(String nodeId, long epoch, Duration ttl) {
      check("lease renew");
      return real.renew(nodeId, epoch, ttl);
    }

    @Override
    public boolean release(String nodeId, long epoch) {
      check("lease release");
      return real.release(nodeId, epoch);
    }

    @Override
    public boolean recordSessionLock(String nodeId, long epoch) {
      check("lease lock record");
      return real.recordSessionLock(nodeId, epoch);
    }

    @Override
    public Optional<Lease> takeOver(
        String nodeId, String observedHolder, long observedEpoch, Duration ttl) {
      check("lease take-over");
      return real.takeOver(nodeId, observedHolder, observedEpoch, ttl);
    }

    @Override
    public Lease read() {
      check("lease read");
      return real.read();
    }

    @Override
    public boolean isCurrent(LeaderFence fence) {
      check("fence check");
      return real.isCurrent(fence);
    }

    @Override
    public Optional<SessionLock> sessionLock() {
      return sessionLock;
    }
  }
}
