package io.tenure.internal.queue;

import io.tenure.MessageProgress;
import io.tenure.QueueMessage;
import io.tenure.Ticker;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leases of one consumer's claimed messages, buffered or running (SPEC §6.2): when each was
 * last set, on the consumer's ticker, and their extension once half of a lease has passed. It also
 * watches that the claims still hold, every {@link #WATCH_EVERY}, so a handler learns of a cancel
 * within a second (SPEC §12.3); takes back from their handlers the messages whose timeout passed
 * (SPEC §12.4); and writes the handlers' latest progress every {@link #PROGRESS_EVERY} (SPEC
 * §12.5), so a handler that reports often costs one write a second.
 */
final class LeaseKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  /** How often the claims held are checked for a cancel: well within the second SPEC allows. */
  static final Duration WATCH_EVERY = Duration.ofMillis(400);

  /** How often the latest progress of each handler is written. */
  static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

  /**
   * A claimed message waiting or at work: when its lease was last set and when its handler's
   * timeout passes (ticker; never until it starts), its cancel signal, and its handler's progress
   * not yet written.
   */
  private record Held(
      QueueMessage message,
      AtomicLong leaseSetAt,
      AtomicReference<@Nullable Deadline> deadline,
      Cancellation cancellation,
      AtomicReference<@Nullable MessageProgress> unwritten) {
    MessageClaim claim() {
      return message.claim();
    }
  }

  /** When a running handler's timeout passes (ticker), and the timeout. */
  private record Deadline(long at, Duration timeout) {}

  /**
   * A message whose handler ran past its timeout, taken from the handler.
   *
   * @param leaseSetAt when its lease was last set (ticker)
   * @param timeout the timeout it ran past
   */
  record Overdue(QueueMessage message, long leaseSetAt, Duration timeout) {}

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

  /** Outcomes being handed on by {@link #finish(long, java.util.function.LongConsumer)}. */
  private final java.util.concurrent.atomic.AtomicInteger finishing =
      new java.util.concurrent.atomic.AtomicInteger();

  /** When progress was last written; the extending thread's too. */
  private long lastProgress;

  LeaseKeeper(QueueStore store, String queue, Duration lease, Ticker ticker) {
    this.store = store;
    this.queue = queue;
    this.lease = lease;
    this.ticker = ticker;
    this.lastCheck = ticker.read();
    this.lastWatch = lastCheck;
    this.lastProgress = lastCheck;
  }

  /** Tracks messages just claimed, their leases set now. */
  void track(List<QueueMessage> claimed) {
    long now = ticker.read();
    claimed.forEach(
        m ->
            held.put(
                m.id(),
                new Held(
                    m,
                    new AtomicLong(now),
                    new AtomicReference<>(),
                    new Cancellation(m.id()),
                    new AtomicReference<>())));
  }

  /**
   * Its handler starts now: its timeout, if any, counts from now.
   *
   * @param timeout null for none
   */
  void started(long id, @Nullable Duration timeout) {
    Held work = held.get(id);
    if (work != null && timeout != null) {
      // At most Limits.MAX_DURATION: the sum cannot overflow.
      work.deadline().set(new Deadline(ticker.read() + timeout.toNanos(), timeout));
    }
  }

  /**
   * Takes back the messages whose handlers ran past their timeouts and sets their signals; their
   * handlers' outcomes will find them no longer held. Called by the extending thread.
   *
   * @return the messages taken back, for the caller to resolve as the policy says
   */
  List<Overdue> timeOutIfDue() {
    long now = ticker.read();
    List<Overdue> overdue = new ArrayList<>();
    for (Map.Entry<Long, Held> entry : held.entrySet()) {
      Held work = entry.getValue();
      Deadline deadline = work.deadline().get();
      if (deadline != null && deadline.at() - now <= 0 && held.remove(entry.getKey(), work)) {
        work.cancellation().timeOut();
        overdue.add(new Overdue(work.message(), work.leaseSetAt().get(), deadline.timeout()));
      }
    }
    if (!overdue.isEmpty()) {
      signalIfEmpty();
    }
    return overdue;
  }

  /** Keeps {@code progress} as the handler's latest, written within {@link #PROGRESS_EVERY}. */
  void progress(long id, MessageProgress progress) {
    Held work = held.get(id);
    if (work != null) {
      work.unwritten().set(progress);
    }
  }

  /** Saves a handler's checkpoint now, under its claim. */
  boolean checkpoint(MessageClaim claim, byte[] state) {
    return store.checkpoint(claim, state);
  }

  /** Every {@link #PROGRESS_EVERY}, writes each handler's latest progress; the extending thread. */
  void writeProgressIfDue() {
    long now = ticker.read();
    if (now - lastProgress < PROGRESS_EVERY.toNanos()) {
      return;
    }
    lastProgress = now;
    for (Held work : held.values()) {
      MessageProgress latest = work.unwritten().getAndSet(null);
      if (latest != null) {
        try {
          store.progress(work.claim(), latest);
        } catch (RuntimeException e) {
          LOG.info(
              "queue {}: could not record the progress of message {}: {}",
              queue,
              work.claim().id(),
              e.toString());
        }
      }
    }
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
    signalIfEmpty();
    return work == null ? OptionalLong.empty() : OptionalLong.of(work.leaseSetAt().get());
  }

  /**
   * Stops tracking a message whose outcome is known, and hands the outcome on before anyone waiting
   * in {@link #awaitNoneHeld} can see the message gone: closing stops the resolvers once none is
   * held, and an outcome queued after that would never be written (the message would run again when
   * its lease lapsed, its handler's work done twice).
   *
   * @param queueOutcome given when its lease was last set; runs only if the message was tracked
   * @return false if it was not tracked (closing abandoned it, or it was taken back)
   */
  boolean finish(long id, java.util.function.LongConsumer queueOutcome) {
    finishing.incrementAndGet();
    try {
      Held work = held.remove(id);
      if (work == null) {
        return false;
      }
      queueOutcome.accept(work.leaseSetAt().get());
      return true;
    } finally {
      finishing.decrementAndGet();
      signalIfEmpty();
    }
  }

  private boolean noneHeld() {
    return held.isEmpty() && finishing.get() == 0;
  }

  private void signalIfEmpty() {
    if (noneHeld()) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
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
      while (!noneHeld()) {
        long left = end - ticker.read();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(emptied, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return noneHeld();
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
