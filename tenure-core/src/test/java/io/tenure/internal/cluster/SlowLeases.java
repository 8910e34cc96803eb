package io.tenure.internal.cluster;

import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Leases whose renewals "take" as long as the test says (it moves time before replying), with a
 * simulated session lock where the test gives one: each elector built on it gets a session of its
 * own from {@link FakeSessionLocks}. One-shot hooks stop the next acquire or release at a point the
 * test chooses (a {@link Gate}), so another thread's steps land in between.
 */
final class SlowLeases implements LeaseStore {
  private final LeaseStore delegate;
  private final @org.jspecify.annotations.Nullable FakeSessionLocks locks;
  private volatile Runnable beforeRenewReply = () -> {};
  private final AtomicReference<Runnable> beforeAcquire = new AtomicReference<>(NOTHING);
  private final AtomicReference<Runnable> beforeAcquireReply = new AtomicReference<>(NOTHING);
  private final AtomicReference<Runnable> beforeRelease = new AtomicReference<>(NOTHING);
  private static final Runnable NOTHING = () -> {};

  SlowLeases(LeaseStore delegate) {
    this(delegate, null);
  }

  SlowLeases(LeaseStore delegate, @org.jspecify.annotations.Nullable FakeSessionLocks locks) {
    this.delegate = delegate;
    this.locks = locks;
  }

  void beforeRenewReply(Runnable action) {
    this.beforeRenewReply = action;
  }

  /** Runs {@code action} once, in the next acquire, before it reaches the store. */
  void beforeNextAcquire(Runnable action) {
    beforeAcquire.set(action);
  }

  /** Runs {@code action} once, in the next acquire, after the store ran it: a late answer. */
  void beforeNextAcquireReply(Runnable action) {
    beforeAcquireReply.set(action);
  }

  /** Runs {@code action} once, in the next release, before it reaches the store. */
  void beforeNextRelease(Runnable action) {
    beforeRelease.set(action);
  }

  @Override
  public Optional<Lease> acquire(String nodeId, Duration ttl) {
    beforeAcquire.getAndSet(NOTHING).run();
    Optional<Lease> acquired = delegate.acquire(nodeId, ttl);
    beforeAcquireReply.getAndSet(NOTHING).run();
    return acquired;
  }

  @Override
  public Optional<Lease> renew(String nodeId, long epoch, Duration ttl) {
    Optional<Lease> renewed = delegate.renew(nodeId, epoch, ttl);
    beforeRenewReply.run();
    return renewed;
  }

  @Override
  public boolean release(String nodeId, long epoch) {
    beforeRelease.getAndSet(NOTHING).run();
    return delegate.release(nodeId, epoch);
  }

  @Override
  public boolean recordSessionLock(String nodeId, long epoch) {
    return delegate.recordSessionLock(nodeId, epoch);
  }

  @Override
  public Optional<Lease> takeOver(
      String nodeId, String observedHolder, long observedEpoch, Duration ttl) {
    return delegate.takeOver(nodeId, observedHolder, observedEpoch, ttl);
  }

  @Override
  public Lease read() {
    return delegate.read();
  }

  @Override
  public boolean isCurrent(LeaderFence fence) {
    return delegate.isCurrent(fence);
  }

  @Override
  public Optional<SessionLock> sessionLock() {
    return locks == null ? Optional.empty() : Optional.of(locks.session());
  }
}
