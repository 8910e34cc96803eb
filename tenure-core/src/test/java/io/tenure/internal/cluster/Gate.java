package io.tenure.internal.cluster;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds one thread at a point of the test's choosing until the test opens it: the test waits until
 * the thread has reached the gate, acts, then opens it. The timeouts only turn a broken test into a
 * failure instead of a hang; no outcome depends on them.
 */
final class Gate {
  private static final long STUCK_SECONDS = 30;
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch opened = new CountDownLatch(1);

  /** Called by the held thread: waits at the gate until it opens. */
  void pass() {
    reached.countDown();
    try {
      if (!opened.await(STUCK_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the gate was never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted at the gate", e);
    }
  }

  /** Waits until the held thread has reached the gate. */
  void awaitReached() throws InterruptedException {
    if (!reached.await(STUCK_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException("no thread reached the gate");
    }
  }

  void open() {
    opened.countDown();
  }
}
