package io.tenure.internal.queue;

import io.tenure.QueueMessage;
import io.tenure.Ticker;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leases of one consumer's claimed messages, buffered or running (SPEC §6.2): when each was
 * last set, on the consumer's ticker, and their extension once half of a lease has passed. It also
 * watches that the claims still hold, every {@link #WATCH_EVERY}, so a handler learns of a cancel
 * within a second (SPEC §12.3).
 */
final class LeaseKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  /** How often the claims held are checked for a cancel: well within the second SPEC allows. */
  static final Duration WATCH_EVERY = Duration.ofMillis(400);

  /**
   * A claimed message waiting or at work, when its lease was last set (ticker), and its cancel
   * signal.
   */
  private record Held(MessageClaim claim, AtomicLong leaseSetAt, Cancellation cancellation) {}

  private final Map<Long, Held> held = new ConcurrentHashMap<>();

  /** Notified when the last held message is finished. */
  private final Object emptied = new Object();

  private final QueueStore store;
  private final String queue;
  private final Duration lease;
  private final Ticker ticker;

  /** When the leases were last looked at; read and written by the extending thread only. */
  private long lastCheck;

  /** When the claims were last checked for a cancel; the extending thread's too. */
  private long lastWatch;

  LeaseKeeper(QueueStore store, String queue, Duration lease, Ticker ticker) {
    this.store = store;
    this.queue = queue;
    this.lease = lease;
    this.ticker = ticker;
    this.lastCheck = ticker.read();
    this.lastWatch = lastCheck;
  }

  /** Tracks messages just claimed, their leases set now. */
  void track(List<QueueMessage> claimed) {
    long now = ticker.read();
    claimed.forEach(
        m -> held.put(m.id(), new Held(m.claim(), new AtomicLong(now), new Cancellation(m.id()))));
  }

  /**
   * @return the message's cancel signal; a signal already set if it is no longer held
   */
  Cancellation cancellation(long id) {
    Held work = held.get(id);
    if (work != null) {
      return work.cancellation();
    }
    Cancellation gone = new Cancellation(id);
    gone.cancel();
    return gone;
  }

  /**
   * Every {@link #WATCH_EVERY}, asks the store which held claims no longer hold and sets their
   * cancel signals; called by the extending thread.
   */
  void watchIfDue() {
    long now = ticker.read();
    if (now - lastWatch < WATCH_EVERY.toNanos() || held.isEmpty()) {
      return;
    }
    lastWatch = now;
    List<MessageClaim> watched =
        held.values().stream()
            .filter(work -> !work.cancellation().cancelled())
            .map(Held::claim)
            .limit(QueueStore.MAX_BATCH)
            .toList();
    if (watched.isEmpty()) {
      return;
    }
    try {
      for (Long id : store.lostClaims(watched)) {
        Held work = held.get(id);
        if (work != null) {
          LOG.info(
              "queue {}: message {} was cancelled or taken back; telling its handler", queue, id);
          work.cancellation().cancel();
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("queue {}: could not check the claims held: {}", queue, e.toString());
    }
  }

  /**
   * Stops tracking a message whose outcome is known.
   *
   * @return when its lease was last set, or empty if it was not tracked (closing abandoned it)
   */
  OptionalLong finish(long id) {
    Held work = held.remove(id);
    if (held.isEmpty()) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
    return work == null ? OptionalLong.empty() : OptionalLong.of(work.leaseSetAt().get());
  }

  /** Extends a claim's lease at a handler's request; tracks the new lease if it held. */
  boolean extend(MessageClaim claim, Duration by) {
    boolean extended = store.extend(claim, by);
    Held work = held.get(claim.id());
    if (extended && work != null) {
      work.leaseSetAt().set(ticker.read());
    }
    return extended;
  }

  /**
   * Every sixth of a lease, extends the leases that have used half of theirs; called by one thread.
   */
  void extendIfDue() {
    long now = ticker.read();
    if (now - lastCheck <= lease.toNanos() / 6) {
      return;
    }
    lastCheck = now;
    long half = lease.toNanos() / 2;
    for (Held work : held.values()) {
      if (now - work.leaseSetAt().get() > half) {
        try {
          if (store.extend(work.claim(), lease)) {
            work.leaseSetAt().set(now);
          }
        } catch (RuntimeException e) {
          LOG.warn(
              "queue {}: could not extend the lease of message {}: {}",
              queue,
              work.claim().id(),
              e.toString());
        }
      }
    }
  }

  /**
   * Waits until no message is held or the ticker reaches {@code end}.
   *
   * @return true if none is held
   */
  boolean awaitNoneHeld(long end) {
    synchronized (emptied) {
      while (!held.isEmpty()) {
        long left = end - ticker.read();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(emptied, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return held.isEmpty();
        }
      }
      return true;
    }
  }

  /**
   * Stops tracking every message still held: their handlers are abandoned, their leases lapse.
   *
   * @return how many were abandoned
   */
  int abandonAll() {
    int abandoned = 0;
    for (Long id : held.keySet()) {
      if (held.remove(id) != null) {
        abandoned++;
      }
    }
    return abandoned;
  }
}
