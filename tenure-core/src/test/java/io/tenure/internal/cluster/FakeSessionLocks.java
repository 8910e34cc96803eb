package io.tenure.internal.cluster;

import io.tenure.spi.LeaseStore.SessionLock;
import org.jspecify.annotations.Nullable;

/**
 * One simulated session lock (PostgreSQL's advisory lock) and the sessions that compete for it. A
 * test kills a session (as {@code pg_terminate_backend} would: the lock is free at once, and the
 * session's next call finds it lost and connects anew) or cuts a session off from the database.
 */
final class FakeSessionLocks {
  private @Nullable Session owner;

  synchronized Session session() {
    return new Session();
  }

  /** Ends the session that holds the lock, if any, as a killed backend would. */
  synchronized void killHolder() {
    if (owner != null) {
      owner.alive = false;
      owner = null;
    }
  }

  synchronized boolean isFree() {
    return owner == null;
  }

  final class Session implements SessionLock {
    private boolean alive = true;
    private boolean held;
    private volatile boolean unreachable;

    /** While true, every call finds the database unreachable. */
    void unreachable(boolean cut) {
      unreachable = cut;
    }

    boolean holds() {
      synchronized (FakeSessionLocks.this) {
        return owner == this;
      }
    }

    @Override
    public Hold hold() {
      synchronized (FakeSessionLocks.this) {
        if (unreachable) {
          return Hold.UNAVAILABLE;
        }
        if (held && alive && owner == this) {
          return Hold.KEPT;
        }
        alive = true; // a new connection
        held = owner == null;
        if (held) {
          owner = this;
          return Hold.TAKEN;
        }
        return Hold.REFUSED;
      }
    }

    @Override
    public void release() {
      synchronized (FakeSessionLocks.this) {
        if (owner == this) {
          owner = null;
        }
        held = false;
      }
    }

    @Override
    public void close() {
      release();
    }
  }
}
