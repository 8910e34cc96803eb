package io.tenure.internal.locks;

import io.tenure.Ticker;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a process's held locks: one daemon thread renews each when due and gives up those it can no
 * longer trust. {@link #tick()} is the whole of one pass, so tests drive it with their own ticker.
 */
final class LockKeeper implements AutoCloseable {
  /** The longest a pass waits, so a lock added meanwhile waits at most this for its first. */
  static final Duration MAX_WAIT = Duration.ofSeconds(1);

  private final Ticker ticker;
  private final Set<DefaultHeldLock> held = ConcurrentHashMap.newKeySet();
  private final Object wake = new Object();
  private final boolean threaded;
  private Thread thread;
  private boolean closed;

  /**
   * @param threaded whether a thread of its own runs the passes; false where a test calls {@link
   *     #tick()}
   */
  LockKeeper(Ticker ticker, boolean threaded) {
    this.ticker = ticker;
    this.threaded = threaded;
  }

  void add(DefaultHeldLock lock) {
    held.add(lock);
    synchronized (wake) {
      if (threaded && thread == null && !closed) {
        thread = Thread.ofPlatform().daemon().name("tenure-locks").start(this::run);
      }
      wake.notifyAll();
    }
  }

  /** One pass: renews what is due, drops what is lost or released. */
  void tick() {
    for (DefaultHeldLock lock : held) {
      if (!lock.keep(ticker.read())) {
        held.remove(lock);
      }
    }
  }

  int held() {
    return held.size();
  }

  private void run() {
    while (true) {
      tick();
      long wait = MAX_WAIT.toNanos();
      long now = ticker.read();
      for (DefaultHeldLock lock : held) {
        wait = Math.min(wait, Math.max(0, Math.min(lock.renewalDue(), lock.deadline()) - now));
      }
      synchronized (wake) {
        if (closed) {
          return;
        }
        try {
          wake.wait(Math.max(1, wait / 1_000_000));
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** Stops the thread; the locks still held are the caller's to release. */
  @Override
  public void close() {
    Thread running;
    synchronized (wake) {
      closed = true;
      running = thread;
      wake.notifyAll();
    }
    if (running != null) {
      try {
        running.join(MAX_WAIT.multipliedBy(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  Set<DefaultHeldLock> locks() {
    return Set.copyOf(held);
  }
}
