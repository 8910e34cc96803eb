package io.tenure.internal.locks;

import io.tenure.HeldLock;
import io.tenure.Limits;
import io.tenure.LockInfo;
import io.tenure.Locks;
import io.tenure.Ticker;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** {@link Locks} on a store: each acquisition a fresh owner id, kept alive by one keeper. */
public final class DefaultLocks implements Locks, AutoCloseable {
  private static final int MAX_LIST = 10_000;

  private final LockStore store;
  private final String holder;
  private final Ticker ticker;
  private final LockKeeper keeper;

  /**
   * @param holder who holds the locks taken here, for operators
   * @param threaded whether a thread renews the locks (false: a test calls {@link #tick()})
   */
  public DefaultLocks(LockStore store, String holder, Ticker ticker, boolean threaded) {
    this.store = store;
    this.holder = LockInfo.checkHolder(holder);
    this.ticker = ticker;
    this.keeper = new LockKeeper(ticker, threaded);
  }

  @Override
  public Optional<HeldLock> tryAcquire(String name, Duration ttl) {
    return acquire(name, ttl, Duration.ZERO).map(lock -> lock);
  }

  private Optional<DefaultHeldLock> acquire(String name, Duration ttl, Duration keepFor) {
    LockInfo.checkName(name);
    Limits.checkPositive("a lock TTL", ttl, Limits.MAX_DURATION);
    long sentAt = ticker.read();
    Optional<LockGrant> grant = store.acquire(name, UUID.randomUUID().toString(), holder, ttl);
    return grant.map(
        g -> {
          DefaultHeldLock lock = new DefaultHeldLock(store, g, ttl, keepFor, ticker, sentAt);
          keeper.add(lock);
          return lock;
        });
  }

  @Override
  public boolean runExclusively(
      String name, Duration atMostFor, Duration atLeastFor, FencedTask body) throws Exception {
    Limits.checkPositive("lockAtMostFor", atMostFor, Limits.MAX_DURATION);
    Limits.checkNotNegative("lockAtLeastFor", atLeastFor, Limits.MAX_DURATION);
    if (atLeastFor.compareTo(atMostFor) > 0) {
      throw new IllegalArgumentException(
          "lockAtLeastFor ("
              + atLeastFor
              + ") must not be longer than lockAtMostFor ("
              + atMostFor
              + ")");
    }
    if (body == null) {
      throw new IllegalArgumentException("the task must not be null");
    }
    Optional<DefaultHeldLock> held = acquire(name, atMostFor, atLeastFor);
    if (held.isEmpty()) {
      return false;
    }
    DefaultHeldLock lock = held.get();
    Throwable failure = null;
    try {
      body.run(lock);
      return true;
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      try {
        lock.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          throw e;
        }
        failure.addSuppressed(e);
      }
    }
  }

  @Override
  public boolean runExclusively(String name, Duration ttl, FencedTask body) throws Exception {
    return runExclusively(name, ttl, Duration.ZERO, body);
  }

  @Override
  public List<LockInfo> list() {
    return store.list(MAX_LIST);
  }

  @Override
  public Optional<LockInfo> find(String name) {
    return store.read(name);
  }

  /** One keeper pass, for tests that drive the ticker. */
  public void tick() {
    keeper.tick();
  }

  /** Stops renewing and releases every lock still held here, best effort. */
  @Override
  public void close() {
    keeper.close();
    for (DefaultHeldLock lock : keeper.locks()) {
      try {
        lock.close();
      } catch (RuntimeException e) {
        // The store may be closing too: the lock lapses after its TTL.
      }
    }
  }
}
