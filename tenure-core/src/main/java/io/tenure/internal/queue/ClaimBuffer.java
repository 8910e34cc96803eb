package io.tenure.internal.queue;

import io.tenure.QueueMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Claimed messages waiting for a handler slot. Closing empties it for good: a claim that returns
 * later is refused, so the claimer that made it gives it back itself.
 */
final class ClaimBuffer {
  private final LinkedBlockingQueue<QueueMessage> claimed = new LinkedBlockingQueue<>();
  private final LeaseKeeper leases;

  /** Set once by {@link #closeAndDrain}. Guarded by {@code this}. */
  private boolean closed;

  ClaimBuffer(LeaseKeeper leases) {
    this.leases = leases;
  }

  /**
   * Adds a claim's messages, their leases tracked from now (a message waiting here keeps its lease
   * too).
   *
   * @return false if the buffer is closed: the caller gives the messages back
   */
  synchronized boolean accept(List<QueueMessage> got) {
    if (closed) {
      return false;
    }
    leases.track(got);
    claimed.addAll(got);
    return true;
  }

  /** The next message, or null if none came within {@code millis}. */
  @Nullable QueueMessage poll(long millis) throws InterruptedException {
    return claimed.poll(millis, TimeUnit.MILLISECONDS);
  }

  /** Adds up to {@code max} more waiting messages to {@code batch}. */
  void drainTo(List<QueueMessage> batch, int max) {
    claimed.drainTo(batch, max);
  }

  /** Puts back a message taken and not handed to a handler (closing). */
  void putBack(QueueMessage message) {
    claimed.add(message);
  }

  /** Closes the buffer and returns what was waiting in it. */
  synchronized List<QueueMessage> closeAndDrain() {
    closed = true;
    List<QueueMessage> unstarted = new ArrayList<>();
    claimed.drainTo(unstarted);
    return unstarted;
  }
}
