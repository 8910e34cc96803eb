package io.tenure.internal.queue;

import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's resolver threads (SPEC §6.3): each gathers outcomes into a batch, lingering
 * briefly for more (one transaction for many outcomes is where throughput comes from), and writes
 * it through the {@link OutcomeWriter}; counts what landed, what was lost and what was given up.
 * The first resolver also keeps the leases of long handlers.
 */
final class ResolveBatcher {
  /** How long a resolver waits for more outcomes before it writes a small batch. */
  static final Duration LINGER = Duration.ofMillis(2);

  /** One wait for more outcomes while lingering; the linger ends after its share of waits. */
  private static final long LINGER_POLL_MICROS = 200;

  /**
   * A failed write of an outcome is tried again until this share of its lease has passed; the rest
   * covers the claim's round trip (the database set the lease before the consumer saw it) and the
   * last try's, so the claim cannot lapse and be handled elsewhere while a retry is in flight.
   */
  private static final int RETRY_FIFTHS_OF_LEASE = 4;

  private static final Logger LOG = LoggerFactory.getLogger(ResolveBatcher.class);

  /** An outcome waiting to be written, and when its claim's lease was last set (ticker). */
  private record Finished(Resolution resolution, long leaseSetAt) {}

  private final LinkedBlockingQueue<Finished> outcomes = new LinkedBlockingQueue<>();
  private final String queue;
  private final QueuePolicy policy;
  private final Duration lease;
  private final Ticker ticker;
  private final ClaimBudget budget;
  private final LeaseKeeper leases;
  private final Claimer claimer;
  private final OutcomeWriter writer;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong retried = new AtomicLong();
  private final AtomicLong dead = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong unwritten = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();

  /** Ticker reading past which a failed write is not tried again: set by closing. */
  private volatile long writesStopBy = Long.MAX_VALUE;

  private volatile boolean resolving;

  ResolveBatcher(
      QueueStore store,
      String queue,
      @Nullable AgentGuard guard,
      QueuePolicy policy,
      Ticker ticker,
      ClaimBudget budget,
      LeaseKeeper leases,
      Claimer claimer) {
    this.queue = queue;
    this.policy = policy;
    this.lease = policy.lease();
    this.ticker = ticker;
    this.budget = budget;
    this.leases = leases;
    this.claimer = claimer;
    this.writer = new OutcomeWriter(store, queue, guard, ticker, () -> writesStopBy);
  }

  /** Starts {@code lanes} resolver threads named after {@code suffix}. */
  void start(String suffix, int lanes) {
    resolving = true;
    for (int i = 0; i < lanes; i++) {
      boolean keepsLeases = i == 0;
      threads.add(
          Thread.ofPlatform()
              .daemon()
              .name("tenure-resolve-" + suffix + "-" + i)
              .start(io.tenure.internal.logging.LogContext.inherit(() -> loop(keepsLeases))));
    }
  }

  /** Queues an outcome to be written. */
  void add(Resolution resolution, long leaseSetAt) {
    outcomes.add(new Finished(resolution, leaseSetAt));
  }

  /**
   * Lets the resolvers write what is queued and end; a write that fails from now on is tried again
   * only until {@code end} (ticker).
   */
  void stop(long end) {
    writesStopBy = end;
    resolving = false;
  }

  List<Thread> threads() {
    return threads;
  }

  long handled() {
    return handled.get();
  }

  long retried() {
    return retried.get();
  }

  long dead() {
    return dead.get();
  }

  long lost() {
    return lost.get();
  }

  long unwritten() {
    return unwritten.get();
  }

  /** Messages taken back from handlers that ran past their timeouts. */
  long timedOut() {
    return timedOut.get();
  }

  private void loop(boolean keepsLeases) {
    while (resolving || !outcomes.isEmpty()) {
      List<Finished> batch = new ArrayList<>();
      try {
        gather(batch);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!batch.isEmpty()) {
        try {
          write(batch);
        } finally {
          claimer.wake(); // the batch's room can be claimed again
        }
      }
      if (keepsLeases) {
        takeBackOverdue();
        leases.extendIfDue();
        leases.watchIfDue();
        leases.writeProgressIfDue();
      }
    }
  }

  /**
   * Resolves, as the policy says, the messages whose handlers ran past their timeouts (SPEC §12.4);
   * the handlers run on, told, and their own outcomes find the messages no longer held.
   */
  private void takeBackOverdue() {
    for (LeaseKeeper.Overdue overdue : leases.timeOutIfDue()) {
      QueueMessage message = overdue.message();
      Resolution.Outcome outcome = OutcomeRule.onTimeout(message, overdue.timeout(), policy);
      LOG.warn(
          "queue {}: message {} ran past its timeout of {} on attempt {}; {} (its handler is told and"
              + " runs on)",
          queue,
          message.id(),
          overdue.timeout(),
          message.attempts(),
          outcome instanceof Resolution.DeadLetter ? "a dead letter" : "retried");
      timedOut.incrementAndGet();
      add(new Resolution(message.claim(), outcome), overdue.leaseSetAt());
    }
  }

  private void gather(List<Finished> batch) throws InterruptedException {
    Finished first = outcomes.poll(5, TimeUnit.MILLISECONDS);
    if (first == null) {
      return;
    }
    batch.add(first);
    long until = ticker.read() + LINGER.toNanos();
    int enough = budget.fetchAhead().resolveBatch();
    // Each empty wait lasts its share of the linger at least, so the count ends the linger even
    // on a ticker that stands still.
    long waits = LINGER.toNanos() / TimeUnit.MICROSECONDS.toNanos(LINGER_POLL_MICROS);
    while (batch.size() < enough && ticker.read() < until && waits > 0) {
      Finished next = outcomes.poll(LINGER_POLL_MICROS, TimeUnit.MICROSECONDS);
      if (next != null) {
        batch.add(next);
      } else {
        waits--;
      }
    }
    outcomes.drainTo(batch, FetchAhead.MAX_RESOLVE_BATCH - batch.size());
  }

  /**
   * Writes a batch, trying a failed write again until the earliest lease of the batch is near its
   * end.
   */
  private void write(List<Finished> batch) {
    long earliest = batch.stream().mapToLong(Finished::leaseSetAt).min().orElseThrow();
    long giveUpAt = earliest + lease.toNanos() / 5 * RETRY_FIFTHS_OF_LEASE;
    OutcomeWriter.Written result =
        writer.write(batch.stream().map(Finished::resolution).toList(), giveUpAt);
    count(result.written());
    budget.resolved(batch.size());
    unwritten.addAndGet(result.unwritten().size());
    if (!result.lost().isEmpty()) {
      lost.addAndGet(result.lost().size());
      LOG.warn(
          "queue {}: {} resolves refused, their claims were lost: {}",
          queue,
          result.lost().size(),
          result.lost().stream().map(r -> r.claim().id()).toList());
    }
    if (result.guardRefused()) {
      // The store put the messages back. The claimer goes on: claims carry the same guard, so if
      // the agent moved on they take nothing until the agent's stop closes this consumer, and if
      // its row was only gone for a moment (deleted, then restored by its runner at the epoch it
      // holds) the queue goes on. Stopping here stranded such a queue for good.
      LOG.warn(
          "queue {}: the exclusive queue's guard refused a resolve (its agent's row was gone or"
              + " names another owner or epoch); {} messages went back",
          queue,
          result.returned().size() + result.written().size());
    }
  }

  private void count(List<Resolution> applied) {
    for (Resolution resolution : applied) {
      switch (resolution.outcome()) {
        case Resolution.Done done -> handled.incrementAndGet();
        case Resolution.Retry retry -> retried.incrementAndGet();
        case Resolution.DeadLetter letter -> dead.incrementAndGet();
        case Resolution.Release release -> {}
        case Resolution.Reschedule snooze -> {}
      }
    }
  }
}
