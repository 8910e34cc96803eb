package io.tenure.internal.queue;

import io.tenure.BatchHandler;
import io.tenure.ConsumerStats;
import io.tenure.Queue;
import io.tenure.Ticker;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's consumer of one queue (SPEC §6.5, §6.6), wired from small parts: the {@link Claimer}
 * claims in batches into the {@link ClaimBuffer}, ahead of the handlers by what the {@link
 * FetchAhead} sizes from their rate; the {@link Dispatcher} hands each message to a handler on a
 * virtual thread when one of {@code concurrency} slots is free, and the {@link OutcomeRule} decides
 * its outcome; the {@link ResolveBatcher} writes the outcomes in batches, each conditional on its
 * claim token, and has the {@link LeaseKeeper} extend the leases of handlers that run long
 * (buffered messages count as running). Two claimers and two resolvers keep two claim and two
 * resolve transactions in flight, so the database works on the next batches while one round trip
 * waits; an exclusive queue is one sequence and has one of each, and one message at a time.
 *
 * <p>Starting and closing follow the {@link CloseProcedure}; every local deadline is read from the
 * injected {@link Ticker}, and so is every handler duration the {@link ConsumerTimings} count.
 */
public final class QueueConsumer {
  private static final Logger LOG = LoggerFactory.getLogger(QueueConsumer.class);

  private final Queue queue;
  private final Supplier<String> nodeId;
  private final boolean exclusive;
  private final Ticker ticker;
  private final ClaimBudget budget;
  private final LeaseKeeper leases;
  private final ClaimBuffer buffer;
  private final Claimer claimer;
  private final ResolveBatcher resolver;
  private final ConsumerTimings timings;
  private final Dispatcher dispatcher;
  private final CloseProcedure life;

  /**
   * @param mayClaim false while the node must not take work (self-fenced)
   */
  public QueueConsumer(
      QueueStore store, ConsumerSpec spec, Supplier<String> nodeId, BooleanSupplier mayClaim) {
    this(store, spec, nodeId, mayClaim, Ticker.system());
  }

  /**
   * @param ticker the clock of every local deadline (lease extension, giving up a failed write,
   *     closing) and of the handler durations
   */
  public QueueConsumer(
      QueueStore store,
      ConsumerSpec spec,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      Ticker ticker) {
    this(store, spec, nodeId, mayClaim, ticker, Claimer.MIN_POLL, Claimer.MAX_POLL);
  }

  /**
   * @param minPoll the claimers' first wait on an empty queue
   * @param maxPoll their longest, backed off to while the queue stays empty
   */
  public QueueConsumer(
      QueueStore store,
      ConsumerSpec spec,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      Ticker ticker,
      Duration minPoll,
      Duration maxPoll) {
    this(
        store,
        spec.queue(),
        spec.handler(),
        spec.concurrency(),
        spec.batchSize(),
        nodeId,
        mayClaim,
        null,
        ticker,
        minPoll,
        maxPoll);
  }

  /**
   * An exclusive queue's consumer, run by the agent {@code queue://NAME} that owns it (SPEC §6.9):
   * one message at a time in strict id order, every claim and resolve carrying the agent's
   * ownership epoch.
   */
  public static QueueConsumer exclusive(QueueStore store, ConsumerSpec spec, AgentGuard guard) {
    return new QueueConsumer(
        store,
        spec.queue(),
        spec.handler(),
        1,
        1,
        guard::nodeId,
        () -> true,
        guard,
        Ticker.system(),
        Claimer.MIN_POLL,
        Claimer.MAX_POLL);
  }

  private QueueConsumer(
      QueueStore store,
      Queue queue,
      BatchHandler handler,
      int concurrency,
      int batchSize,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      @Nullable AgentGuard guard,
      Ticker ticker,
      Duration minPoll,
      Duration maxPoll) {
    if (concurrency < 1 || concurrency > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "consumer concurrency must be 1 to " + QueueStore.MAX_BATCH + ", got " + concurrency);
    }
    this.queue = queue;
    this.nodeId = nodeId;
    this.exclusive = guard != null;
    this.ticker = ticker;
    Duration lease = queue.policy().lease();
    this.budget = new ClaimBudget(FetchAhead.initial(exclusive, concurrency, batchSize), ticker);
    this.leases = new LeaseKeeper(store, queue.name(), lease, ticker);
    this.buffer = new ClaimBuffer(leases);
    this.timings = new ConsumerTimings(ticker, lease);
    this.claimer =
        new Claimer(
            store, queue, nodeId, mayClaim, guard, budget, buffer, timings, minPoll, maxPoll);
    this.resolver =
        new ResolveBatcher(
            store, queue.name(), guard, queue.policy(), ticker, budget, leases, claimer);
    this.dispatcher =
        new Dispatcher(
            queue,
            handler,
            concurrency,
            batchSize,
            buffer,
            leases,
            budget,
            resolver,
            claimer,
            timings);
    this.life = new CloseProcedure(new Parts(), ticker);
  }

  /**
   * Starts claiming and handling.
   *
   * @throws IllegalStateException if started or closed before
   */
  public void start() {
    life.start();
  }

  public String queueName() {
    return queue.name();
  }

  /** Wakes the claimers now, e.g. after a local enqueue or a notification. */
  public void wake() {
    claimer.wake();
  }

  public ConsumerStats stats() {
    return new ConsumerStats(
        queue.name(),
        resolver.handled(),
        resolver.retried(),
        resolver.dead(),
        resolver.lost(),
        budget.outstanding(),
        resolver.unwritten(),
        resolver.timedOut(),
        timings.handlerDuration(),
        timings.pickupLatency());
  }

  /**
   * Stops claiming, waits for running handlers until {@code deadline}, releases what never started,
   * writes every outcome, and abandons handlers still running. Returns within {@link #closeBound}.
   * A second close does nothing.
   */
  public void close(Duration deadline) {
    life.close(deadline);
  }

  /** The longest {@link #close} takes for {@code deadline}. */
  public static Duration closeBound(Duration deadline) {
    return CloseProcedure.bound(deadline);
  }

  /** The steps of starting and closing, each done by the part that owns it. */
  private final class Parts implements CloseProcedure.Steps {
    @Override
    public void start() {
      String node = nodeId.get();
      String suffix = queue.name() + "-" + node.substring(0, Math.min(8, node.length()));
      int lanes = exclusive ? 1 : FetchAhead.LANES;
      // The threads take the starter's log context (the node's, and an exclusive queue's agent)
      // and the queue's name.
      try (var log =
          io.tenure.internal.logging.LogContext.with(io.tenure.LogKeys.QUEUE, queue.name())) {
        claimer.start(suffix, lanes);
        resolver.start(suffix, lanes);
        dispatcher.start(suffix);
      }
    }

    @Override
    public void stopClaimers(long end) {
      claimer.stop();
      claimer.threads().forEach(thread -> join(thread, end));
    }

    @Override
    public void stopDispatcher(long end) {
      Thread thread = dispatcher.thread();
      if (thread != null) {
        thread.interrupt();
        join(thread, end);
      }
    }

    @Override
    public void releaseUnstarted() {
      // A claimer still in a claim past the deadline releases what it gets by itself.
      for (var message : buffer.closeAndDrain()) {
        long leaseSetAt = leases.finish(message.id()).orElse(ticker.read());
        resolver.add(new Resolution(message.claim(), new Resolution.Release()), leaseSetAt);
      }
    }

    @Override
    public boolean awaitHandlers(long end) {
      return leases.awaitNoneHeld(end);
    }

    @Override
    public void abandonHandlers(Duration deadline) {
      int abandoned = leases.abandonAll();
      LOG.warn(
          "queue {}: {} handlers still running after {}; abandoned, their leases will lapse",
          queue.name(),
          abandoned,
          deadline);
      budget.resolved(abandoned);
    }

    @Override
    public void writeOutcomes(long end) {
      resolver.stop(end);
      resolver.threads().forEach(thread -> join(thread, end));
      dispatcher.shutdown();
    }

    private void join(Thread thread, long end) {
      try {
        thread.join(Duration.ofNanos(Math.max(1_000_000, end - ticker.read())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
