package io.tenure.internal.locks;

import io.tenure.HeldLock;
import io.tenure.Ticker;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition and its local view of itself: when its last renewal was sent, and so until when
 * it may trust that it holds the lock. A renewal is trusted only from before it was sent: the
 * database set the new expiry after that moment, so the lock lasts at least a TTL from it.
 */
final class DefaultHeldLock implements HeldLock {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultHeldLock.class);

  /**
   * Held while a renewal this recent succeeded: nine tenths of the TTL, a margin for clock rates.
   */
  static final int TRUST_TENTHS = 9;

  enum State {
    HELD,
    LOST,
    RELEASED
  }

  private final LockStore store;
  private final LockGrant grant;
  private final Duration ttl;
  private final Duration keepFor;
  private final Ticker ticker;
  private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
  private final List<Consumer<HeldLock>> lostListeners = new CopyOnWriteArrayList<>();
  private volatile long trustedSince;
  private volatile long lastTry;

  /**
   * @param sentAt the ticker's reading before the acquisition was sent
   */
  DefaultHeldLock(
      LockStore store,
      LockGrant grant,
      Duration ttl,
      Duration keepFor,
      Ticker ticker,
      long sentAt) {
    this.store = store;
    this.grant = grant;
    this.ttl = ttl;
    this.keepFor = keepFor;
    this.ticker = ticker;
    this.trustedSince = sentAt;
    this.lastTry = sentAt;
  }

  @Override
  public String name() {
    return grant.name();
  }

  @Override
  public long token() {
    return grant.token();
  }

  @Override
  public String holder() {
    return grant.holder();
  }

  @Override
  public boolean stillHeld() {
    return state.get() == State.HELD && ticker.read() - deadline() < 0;
  }

  @Override
  public HeldLock onLost(Consumer<HeldLock> listener) {
    lostListeners.add(listener);
    if (state.get() == State.LOST && lostListeners.remove(listener)) {
      call(listener);
    }
    return this;
  }

  @Override
  public boolean fence(Connection transaction) {
    return stillHeld() && store.holds(transaction, grant);
  }

  @Override
  public void close() {
    if (state.compareAndSet(State.HELD, State.RELEASED)) {
      store.release(grant, keepFor);
    }
  }

  State state() {
    return state.get();
  }

  /** The ticker reading until which this holder trusts its last successful renewal. */
  long deadline() {
    return trustedSince + ttl.toNanos() / 10 * TRUST_TENTHS;
  }

  /** When the next renewal is due: a third of the TTL after the last try. */
  long renewalDue() {
    return lastTry + ttl.toNanos() / 3;
  }

  /**
   * Renews if due, or gives the lock up as lost once it can no longer be trusted.
   *
   * @return whether the lock is still held after this call
   */
  boolean keep(long now) {
    if (state.get() != State.HELD) {
      return false;
    }
    if (now - deadline() >= 0) {
      lose("no renewal succeeded within " + ttl.multipliedBy(TRUST_TENTHS).dividedBy(10));
      return false;
    }
    if (now - renewalDue() < 0) {
      return true;
    }
    lastTry = now;
    try {
      if (store.renew(grant, ttl)) {
        trustedSince = now;
        return true;
      }
      lose("its renewal was refused: it expired or another holder took it");
      return false;
    } catch (RuntimeException e) {
      // Tried again a third of the TTL later, until the deadline gives the lock up.
      LOG.warn("lock {} (token {}): renewal failed, retrying: {}", name(), token(), e.toString());
      return true;
    }
  }

  private void lose(String why) {
    if (state.compareAndSet(State.HELD, State.LOST)) {
      LOG.warn("lock {} (token {}) held by {} is lost: {}", name(), token(), holder(), why);
      for (Consumer<HeldLock> listener : List.copyOf(lostListeners)) {
        if (lostListeners.remove(listener)) {
          call(listener);
        }
      }
    }
  }

  private void call(Consumer<HeldLock> listener) {
    try {
      listener.accept(this);
    } catch (RuntimeException e) {
      LOG.warn("lock {}: a lost-lock listener failed", name(), e);
    }
  }

  @Override
  public String toString() {
    return "HeldLock[" + name() + ", token " + token() + ", " + holder() + ", " + state + "]";
  }
}
