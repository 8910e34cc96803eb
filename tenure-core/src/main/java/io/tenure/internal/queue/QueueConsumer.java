package io.tenure.internal.queue;

import io.tenure.BatchHandler;
import io.tenure.ConsumerStats;
import io.tenure.Delivery;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.Ticker;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's consumer of one queue (SPEC §6.5, §6.6). Two claimer threads claim in batches, ahead
 * of the handlers by what they finish in {@link #FETCH_AHEAD_FOR} (fetch-ahead); a dispatcher hands
 * each message to a handler on a virtual thread when one of {@code concurrency} slots is free; two
 * resolvers write the outcomes in batches, each conditional on its claim token, and one of them
 * extends the leases of handlers that run long (buffered messages count as running). An exclusive
 * queue has one claimer and one resolver, and one message at a time. Polling backs off from {@link
 * #MIN_POLL} to {@link #MAX_POLL} while the queue is empty and resets as soon as a claim finds
 * work.
 *
 * <p>{@link #close(Duration)} stops claiming, gives running handlers until the deadline, releases
 * what was claimed but never started (no attempt spent), writes the outcomes of what finished, and
 * abandons (never interrupts) handlers past the deadline: their leases lapse and the reclaim sweep
 * takes their messages back. It never waits without bound.
 */
public final class QueueConsumer {
  static final Duration MIN_POLL = Duration.ofMillis(20);
  static final Duration MAX_POLL = Duration.ofSeconds(1);
  private static final int MAX_RESOLVE_BATCH = 500;

  /**
   * Fetch-ahead is sized by the rate the handlers finish messages: enough for this long, so a
   * consumer of fast handlers moves work in large claims and one of slow handlers does not hoard
   * messages its peers could run. Buffered messages wait under their lease, which the consumer
   * extends like a running handler's.
   */
  static final Duration FETCH_AHEAD_FOR = Duration.ofMillis(250);

  /** Fetch-ahead at least: a claim or resolve costs about the same for 1 message as for 32. */
  static final int MIN_FETCH_AHEAD = 32;

  /** Fetch-ahead at most, whatever the rate: 2 claims of 512, the raw SQL ceiling's best batch. */
  static final int MAX_FETCH_AHEAD = 1024;

  /** How often the handling rate behind fetch-ahead is measured. */
  private static final long RATE_SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** How long the resolver waits for more outcomes before it writes a small batch. */
  private static final Duration LINGER = Duration.ofMillis(2);

  /** Outcomes not yet written, in fetch-aheads, before the claimer waits for the resolver. */
  private static final int RESOLVE_BACKLOG = 2;

  /** The most closing waits past its deadline for threads that do not run handlers. */
  private static final Duration SETTLE = Duration.ofSeconds(5);

  /** Claimers and resolvers per (non-exclusive) consumer. */
  private static final int LANES = 2;

  private static final Logger LOG = LoggerFactory.getLogger(QueueConsumer.class);

  private final QueueStore store;
  private final Queue queue;
  private final BatchHandler handler;
  private final int batchSize;
  private final int concurrency;
  private final Supplier<String> nodeId;
  private final BooleanSupplier mayClaim;

  /**
   * For an exclusive queue (SPEC §6.9): the agent's ownership, on every claim and resolve; else
   * null.
   */
  private final io.tenure.spi.@org.jspecify.annotations.Nullable AgentGuard guard;

  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final Semaphore slots;
  private final LinkedBlockingQueue<QueueMessage> claimed = new LinkedBlockingQueue<>();
  private final LinkedBlockingQueue<Finished> outcomes = new LinkedBlockingQueue<>();
  private final Map<Long, Running> running = new ConcurrentHashMap<>();

  /** Claimed and not yet resolved: buffered, running, or with an outcome waiting to be written. */
  private final AtomicInteger outstanding = new AtomicInteger();

  /** Claimed and not yet handled: buffered or running. What fetch-ahead refills. */
  private final AtomicInteger unhandled = new AtomicInteger();

  /** Messages the handlers finished, for the rate that sizes fetch-ahead. */
  private final AtomicLong finished = new AtomicLong();

  /** The current fetch-ahead; see {@link #capacity()}. */
  private volatile int capacity;

  private long rateSampledAt;
  private long finishedAtSample;
  private double rate;
  private final Object wake = new Object();
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong retried = new AtomicLong();
  private final AtomicLong dead = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong unwritten = new AtomicLong();

  /** Local deadlines of the leases (when each was set, when a write of its outcome gives up). */
  private final Ticker ticker;

  private final OutcomeWriter writer;

  /** System.nanoTime past which a failed write is not tried again: set by {@link #close}. */
  private volatile long writesStopBy = Long.MAX_VALUE;

  private volatile boolean claiming;
  private volatile boolean resolving;
  private final List<Thread> claimers = new ArrayList<>();
  private Thread dispatcher;
  private final List<Thread> resolvers = new ArrayList<>();

  /** Held while a claimer computes its room and reserves it, so two claimers never share room. */
  private final Object reserving = new Object();

  /** Held while claimed messages enter the buffer, and while closing empties it for good. */
  private final Object buffer = new Object();

  /**
   * Set once by {@link #close}: from then on a claimer releases what it claims. Guarded by {@link
   * #buffer}.
   */
  private boolean bufferClosed;

  /** A claimed message, waiting or at work: its claim and when its lease was last set (ticker). */
  private record Running(MessageClaim claim, AtomicLong leaseSetAt) {}

  /** An outcome waiting to be written, and when its claim's lease was last set (ticker). */
  private record Finished(Resolution resolution, long leaseSetAt) {}

  /**
   * A failed write of an outcome is tried again until this share of its lease has passed; the rest
   * covers the claim's round trip (the database set the lease before the consumer saw it) and the
   * last try's, so the claim cannot lapse and be handled elsewhere while a retry is in flight.
   */
  private static final int RETRY_FIFTHS_OF_LEASE = 4;

  /**
   * @param mayClaim false while the node must not take work (self-fenced)
   */
  public QueueConsumer(
      QueueStore store, ConsumerSpec spec, Supplier<String> nodeId, BooleanSupplier mayClaim) {
    this(store, spec, nodeId, mayClaim, Ticker.system());
  }

  /**
   * @param ticker the clock of the leases' local deadlines (extension, giving up a failed write)
   */
  public QueueConsumer(
      QueueStore store,
      ConsumerSpec spec,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      Ticker ticker) {
    this(
        store,
        spec.queue(),
        spec.handler(),
        spec.concurrency(),
        spec.batchSize(),
        nodeId,
        mayClaim,
        null,
        ticker);
  }

  /**
   * An exclusive queue's consumer, run by the agent {@code queue://NAME} that owns it: one message
   * at a time in strict id order, every claim and resolve carrying the agent's ownership epoch.
   */
  public static QueueConsumer exclusive(
      QueueStore store, ConsumerSpec spec, io.tenure.spi.AgentGuard guard) {
    return new QueueConsumer(
        store,
        spec.queue(),
        spec.handler(),
        1,
        1,
        guard::nodeId,
        () -> true,
        guard,
        Ticker.system());
  }

  private QueueConsumer(
      QueueStore store,
      Queue queue,
      BatchHandler handler,
      int concurrency,
      int batchSize,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      io.tenure.spi.@org.jspecify.annotations.Nullable AgentGuard guard,
      Ticker ticker) {
    if (concurrency < 1 || concurrency > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "consumer concurrency must be 1 to " + QueueStore.MAX_BATCH + ", got " + concurrency);
    }
    this.store = store;
    this.queue = queue;
    this.handler = handler;
    this.concurrency = concurrency;
    this.batchSize = batchSize;
    this.nodeId = nodeId;
    this.mayClaim = mayClaim;
    this.guard = guard;
    this.slots = new Semaphore(concurrency);
    this.ticker = ticker;
    this.writer = new OutcomeWriter(store, queue.name(), guard, ticker, () -> writesStopBy);
  }

  public void start() {
    claiming = true;
    resolving = true;
    String node = nodeId.get();
    String suffix = queue.name() + "-" + node.substring(0, Math.min(8, node.length()));
    // Two claimers and two resolvers keep two claim and two resolve transactions in flight, so the
    // database works on the next batches while one round trip waits; an exclusive queue is one
    // sequence and has one of each.
    int lanes = guard == null ? LANES : 1;
    for (int i = 0; i < lanes; i++) {
      claimers.add(
          Thread.ofPlatform()
              .daemon()
              .name("tenure-claim-" + suffix + "-" + i)
              .start(this::claimLoop));
      boolean extender = i == 0;
      resolvers.add(
          Thread.ofPlatform()
              .daemon()
              .name("tenure-resolve-" + suffix + "-" + i)
              .start(() -> resolveLoop(extender)));
    }
    dispatcher =
        Thread.ofPlatform().daemon().name("tenure-dispatch-" + suffix).start(this::dispatchLoop);
  }

  public String queueName() {
    return queue.name();
  }

  /** Wakes the claimer now, e.g. after a local enqueue or a notification. */
  public void wake() {
    synchronized (wake) {
      wake.notifyAll();
    }
  }

  public ConsumerStats stats() {
    return new ConsumerStats(
        queue.name(),
        handled.get(),
        retried.get(),
        dead.get(),
        lost.get(),
        outstanding.get(),
        unwritten.get());
  }

  private void claimLoop() {
    long idle = MIN_POLL.toNanos();
    while (claiming) {
      int want = mayClaim.getAsBoolean() ? reserve() : 0;
      if (want == 0) {
        pause(MAX_POLL.toNanos());
        continue;
      }
      List<QueueMessage> got;
      try {
        got =
            store.claim(
                new ClaimRequest(
                    queue.name(),
                    nodeId.get(),
                    want,
                    queue.policy().lease(),
                    guard != null,
                    guard));
      } catch (RuntimeException e) {
        unreserve(want);
        LOG.warn("queue {}: claim failed: {}", queue.name(), e.toString());
        pause(MAX_POLL.toNanos());
        continue;
      }
      unreserve(want - got.size());
      if (got.isEmpty()) {
        pause(idle);
        idle = Math.min(idle * 2, MAX_POLL.toNanos());
        continue;
      }
      idle = MIN_POLL.toNanos();
      synchronized (buffer) {
        if (!bufferClosed) {
          // Tracked from the claim, not the dispatch: a message waiting in the buffer keeps its
          // lease too.
          long now = ticker.read();
          got.forEach(m -> running.put(m.id(), new Running(m.claim(), new AtomicLong(now))));
          claimed.addAll(got);
          continue;
        }
      }
      releaseLate(got);
    }
  }

  /**
   * Gives back a claim that returned after {@link #close} emptied the buffer (it outlived the drain
   * deadline): written here, because the resolvers may have stopped, so that the messages do not
   * wait for their leases to lapse.
   */
  private void releaseLate(List<QueueMessage> got) {
    unreserve(got.size());
    try {
      store.resolve(
          got.stream().map(m -> new Resolution(m.claim(), new Resolution.Release())).toList(),
          guard);
    } catch (RuntimeException e) {
      LOG.warn(
          "queue {}: could not release {} messages claimed while closing; their leases will lapse: {}",
          queue.name(),
          got.size(),
          e.toString());
    }
  }

  /**
   * Reserves room for one claim and returns its size, or 0 if a claim is not worth it yet. Refill
   * by parts, not one freed slot at a time: fewer, larger claim transactions. The room counts what
   * the handlers have not finished, not what the resolvers have not yet written, so the next claim
   * runs while the last batch's outcomes are being written; the outcomes waiting to be written are
   * bounded too. One claim takes at most half the fetch-ahead, so two claimers can both be busy.
   */
  private int reserve() {
    synchronized (reserving) {
      int capacity = resize();
      if (guard != null) {
        int room = capacity - outstanding.get();
        if (room < 1) {
          return 0;
        }
        outstanding.addAndGet(room);
        unhandled.addAndGet(room);
        return room;
      }
      int room =
          Math.min(capacity - unhandled.get(), RESOLVE_BACKLOG * capacity - outstanding.get());
      if (room < capacity / (2 * LANES)) {
        return 0;
      }
      int want = Math.min(Math.min(room, capacity / 2), QueueStore.MAX_BATCH);
      outstanding.addAndGet(want);
      unhandled.addAndGet(want);
      return want;
    }
  }

  /** Gives back room a claim reserved and did not fill. */
  private void unreserve(int unused) {
    if (unused > 0) {
      outstanding.addAndGet(-unused);
      unhandled.addAndGet(-unused);
    }
  }

  /**
   * Messages claimed ahead: an exclusive queue holds one at a time, so a failed head is retried
   * first; any other, what its handlers finish in {@link #FETCH_AHEAD_FOR} at the rate measured, at
   * least enough to fill every slot twice and {@link #MIN_FETCH_AHEAD}, at most {@link
   * #MAX_FETCH_AHEAD} (or the slots twice, if more).
   */
  private int capacity() {
    int current = capacity;
    return current > 0 ? current : floor();
  }

  private int floor() {
    return guard != null ? 1 : Math.max(MIN_FETCH_AHEAD, 2 * concurrency * batchSize);
  }

  /**
   * Measures the handling rate (at most every 50 ms) and sets the fetch-ahead from it; called by
   * claimers.
   */
  private int resize() {
    long now = System.nanoTime();
    if (guard == null && now - rateSampledAt >= RATE_SAMPLE_NANOS) {
      long done = finished.get();
      if (rateSampledAt != 0) {
        double sampled = (done - finishedAtSample) * 1e9 / (now - rateSampledAt);
        // Rises at once (a backlog arrived), falls by halves (a short pause is not a new rate).
        rate = Math.max(sampled, rate / 2);
      }
      rateSampledAt = now;
      finishedAtSample = done;
      int wanted = (int) Math.min(Integer.MAX_VALUE, rate * FETCH_AHEAD_FOR.toNanos() / 1e9);
      capacity = Math.max(floor(), Math.min(MAX_FETCH_AHEAD, wanted));
    }
    return capacity();
  }

  private void pause(long nanos) {
    synchronized (wake) {
      if (!claiming) {
        return;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(wake, nanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        claiming = false;
      }
    }
  }

  private void dispatchLoop() {
    while (claiming) {
      QueueMessage message;
      try {
        message = claimed.poll(MAX_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (message == null) {
        continue;
      }
      try {
        slots.acquire();
      } catch (InterruptedException e) {
        claimed.add(message); // closing: released with the rest of the buffer
        return;
      }
      if (!claiming) {
        slots.release();
        claimed.add(message);
        return;
      }
      List<QueueMessage> batch = new ArrayList<>(List.of(message));
      claimed.drainTo(batch, batchSize - 1);
      handlers.submit(() -> handle(batch));
    }
  }

  private void handle(List<QueueMessage> batch) {
    Throwable failure = null;
    try {
      handler.handle(batch.stream().<Delivery>map(ClaimedDelivery::new).toList());
    } catch (Throwable thrown) {
      failure = thrown;
    }
    for (QueueMessage message : batch) {
      Resolution.Outcome outcome = outcome(message, failure);
      Running work = running.remove(message.id());
      if (work != null) {
        outcomes.add(
            new Finished(new Resolution(message.claim(), outcome), work.leaseSetAt().get()));
      }
    }
    slots.release();
    // Wake the claimers as the buffer falls past a claim's worth: that is when the next claim is
    // due.
    finished.addAndGet(batch.size());
    int size = capacity();
    int due = size - size / (2 * LANES);
    int before = unhandled.getAndAdd(-batch.size());
    if (before > due && before - batch.size() <= due) {
      wake();
    }
  }

  private Resolution.Outcome outcome(
      QueueMessage message, @org.jspecify.annotations.Nullable Throwable failure) {
    if (failure == null) {
      return new Resolution.Done(!queue.policy().retainDone().isZero());
    }
    String error = describe(failure);
    LOG.debug(
        "queue {}: message {} failed on attempt {}: {}",
        queue.name(),
        message.id(),
        message.attempts(),
        error);
    if (queue.policy().isNonRetryable(failure) || message.attempts() >= message.maxAttempts()) {
      return new Resolution.DeadLetter(error);
    }
    return new Resolution.Failed(queue.policy().retryDelay(message.attempts()), error);
  }

  private static String describe(Throwable failure) {
    String text = failure.toString();
    return text.length() > 2000 ? text.substring(0, 2000) : text;
  }

  /**
   * @param extender whether this resolver also extends the leases of long handlers (one does)
   */
  private void resolveLoop(boolean extender) {
    long lastLeaseCheck = ticker.read();
    while (resolving || !outcomes.isEmpty()) {
      List<Finished> batch = new ArrayList<>();
      try {
        Finished first = outcomes.poll(5, TimeUnit.MILLISECONDS);
        if (first != null) {
          batch.add(first);
          // Linger briefly for more: one transaction for many outcomes is where throughput comes
          // from.
          long until = System.nanoTime() + LINGER.toNanos();
          int enough = guard != null ? 1 : Math.min(MAX_RESOLVE_BATCH, capacity() / (2 * LANES));
          while (batch.size() < enough && System.nanoTime() < until) {
            Finished next = outcomes.poll(200, TimeUnit.MICROSECONDS);
            if (next != null) {
              batch.add(next);
            }
          }
          outcomes.drainTo(batch, MAX_RESOLVE_BATCH - batch.size());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!batch.isEmpty()) {
        write(batch);
      }
      long now = ticker.read();
      if (extender && now - lastLeaseCheck > queue.policy().lease().toNanos() / 6) {
        lastLeaseCheck = now;
        extendLongRunning(now);
      }
    }
  }

  /** Writes a batch, then wakes the claimer: the batch's room can be claimed again. */
  private void write(List<Finished> batch) {
    try {
      writeOnce(batch);
    } finally {
      wake();
    }
  }

  /**
   * Writes a batch through the {@link OutcomeWriter}, which tries a failed write again until the
   * earliest lease of the batch is near its end; counts what landed, what was lost and what was
   * given up.
   */
  private void writeOnce(List<Finished> batch) {
    long earliest = batch.stream().mapToLong(Finished::leaseSetAt).min().orElseThrow();
    long giveUpAt = earliest + queue.policy().lease().toNanos() / 5 * RETRY_FIFTHS_OF_LEASE;
    OutcomeWriter.Written result =
        writer.write(batch.stream().map(Finished::resolution).toList(), giveUpAt);
    count(result.written());
    outstanding.addAndGet(-batch.size());
    unwritten.addAndGet(result.unwritten().size());
    if (!result.lost().isEmpty()) {
      lost.addAndGet(result.lost().size());
      LOG.warn(
          "queue {}: {} resolves refused, their claims were lost: {}",
          queue.name(),
          result.lost().size(),
          result.lost().stream().map(r -> r.claim().id()).toList());
    }
    if (result.guardRefused()) {
      // The agent moved on: the store put the messages back for its new owner.
      LOG.warn(
          "queue {}: this node no longer owns the exclusive queue; {} messages went back",
          queue.name(),
          result.returned().size() + result.written().size());
      claiming = false;
    }
  }

  private void count(List<Resolution> applied) {
    for (Resolution resolution : applied) {
      switch (resolution.outcome()) {
        case Resolution.Done done -> handled.incrementAndGet();
        case Resolution.Failed failed -> retried.incrementAndGet();
        case Resolution.DeadLetter letter -> dead.incrementAndGet();
        case Resolution.Release release -> {}
        case Resolution.Reschedule snooze -> {}
      }
    }
  }

  /** Extends the leases of handlers that have used half of theirs. */
  private void extendLongRunning(long now) {
    long half = queue.policy().lease().toNanos() / 2;
    for (Running work : running.values()) {
      if (now - work.leaseSetAt().get() > half) {
        try {
          if (store.extend(work.claim(), queue.policy().lease())) {
            work.leaseSetAt().set(now);
          }
        } catch (RuntimeException e) {
          LOG.warn(
              "queue {}: could not extend the lease of message {}: {}",
              queue.name(),
              work.claim().id(),
              e.toString());
        }
      }
    }
  }

  /**
   * Stops claiming, waits for running handlers until {@code deadline}, releases what never started,
   * writes every outcome, and abandons handlers still running. Returns within about {@code
   * deadline} plus one store round trip per batch.
   */
  public void close(Duration deadline) {
    long end = System.nanoTime() + deadline.toNanos();
    claiming = false;
    wake();
    claimers.forEach(claimer -> join(claimer, end));
    // The dispatcher answers an interrupt at once, putting back a message it held: wait for that
    // even past the deadline, or the message would be neither released nor handled.
    dispatcher.interrupt();
    join(dispatcher, Math.max(end, System.nanoTime() + SETTLE.toNanos()));
    List<QueueMessage> unstarted = new ArrayList<>();
    synchronized (buffer) {
      // A claimer still in a claim past the deadline releases what it gets by itself.
      bufferClosed = true;
      claimed.drainTo(unstarted);
    }
    unstarted.forEach(
        m -> {
          Running work = running.remove(m.id());
          long leaseSetAt = work != null ? work.leaseSetAt().get() : ticker.read();
          outcomes.add(
              new Finished(new Resolution(m.claim(), new Resolution.Release()), leaseSetAt));
        });
    while (!running.isEmpty() && System.nanoTime() < end) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (!running.isEmpty()) {
      LOG.warn(
          "queue {}: {} handlers still running after {}; abandoned, their leases will lapse",
          queue.name(),
          running.size(),
          deadline);
      outstanding.addAndGet(-running.size());
      running.clear();
    }
    long resolversEnd = System.nanoTime() + SETTLE.toNanos();
    // A write that fails while closing is tried again only while the resolvers may still run.
    writesStopBy = resolversEnd;
    resolving = false;
    resolvers.forEach(resolver -> join(resolver, resolversEnd));
    handlers.shutdown();
  }

  /**
   * The longest {@link #close} takes: the deadline, the dispatcher's settling and the resolvers'
   * (each at most {@link #SETTLE}), and a second for the rest.
   */
  public static Duration closeBound(Duration deadline) {
    return deadline.plus(SETTLE.multipliedBy(2)).plusSeconds(1);
  }

  private static void join(Thread thread, long endNanos) {
    try {
      thread.join(Duration.ofNanos(Math.max(1_000_000, endNanos - System.nanoTime())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private final class ClaimedDelivery implements Delivery {
    private final QueueMessage message;

    ClaimedDelivery(QueueMessage message) {
      this.message = message;
    }

    @Override
    public QueueMessage message() {
      return message;
    }

    @Override
    public boolean extendLease(Duration lease) {
      boolean held = store.extend(message.claim(), lease);
      Running work = running.get(message.id());
      if (held && work != null) {
        work.leaseSetAt().set(ticker.read());
      }
      return held;
    }
  }
}
