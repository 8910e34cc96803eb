package io.tenure.internal.wake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which wake-ups (of type {@code K}: a queue, agents placed) to announce when, as a pure function
 * of the calls and the times passed in: a burst of enqueues on one queue sends one wake-up at once
 * and at most one more per {@code window} (the trailing one, for the messages that committed after
 * the first went out), never one per message. A wake-up offered is never dropped: it goes out at
 * once or at most one window later.
 *
 * <p>Not thread-safe: {@link WakeSender} calls it under its lock.
 */
final class WakePacer<K> {
  private final long window;
  private final Map<K, Slot> slots = new HashMap<>();

  private static final class Slot {
    long sentAt;
    boolean pending;

    Slot(long sentAt) {
      this.sentAt = sentAt;
    }
  }

  /**
   * @param window the least time between two wake-ups of one queue, in ticker nanoseconds
   */
  WakePacer(long window) {
    if (window <= 0) {
      throw new IllegalArgumentException("window must be positive, got " + window);
    }
    this.window = window;
  }

  /**
   * A commit on {@code queue} at {@code now}.
   *
   * @return true if the wake-up goes out now; false if it was folded into one due later
   */
  boolean offer(K queue, long now) {
    Slot slot = slots.get(queue);
    if (slot == null) {
      slots.put(queue, new Slot(now));
      return true;
    }
    if (now - slot.sentAt >= window) {
      slot.sentAt = now;
      slot.pending = false;
      return true;
    }
    slot.pending = true;
    return false;
  }

  /**
   * @return the queues whose folded wake-up is due at {@code now}, each counted as sent now
   */
  List<K> due(long now) {
    List<K> due = new ArrayList<>();
    var it = slots.entrySet().iterator();
    while (it.hasNext()) {
      var entry = it.next();
      Slot slot = entry.getValue();
      if (slot.pending && now - slot.sentAt >= window) {
        slot.sentAt = now;
        slot.pending = false;
        due.add(entry.getKey());
      } else if (!slot.pending && now - slot.sentAt >= window) {
        it.remove(); // quiet for a window: forget it, so idle queues cost nothing
      }
    }
    return due;
  }

  /**
   * @return when the next folded wake-up falls due, or {@link Long#MAX_VALUE} if none waits
   */
  long nextDue() {
    long next = Long.MAX_VALUE;
    for (Slot slot : slots.values()) {
      if (slot.pending) {
        next = Math.min(next, slot.sentAt + window);
      }
    }
    return next;
  }
}
