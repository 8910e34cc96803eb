package io.tenure.internal.queue;

import io.tenure.BatchHandler;
import io.tenure.Delivery;
import io.tenure.MessageProgress;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands buffered messages to the handler, up to a batch per call, each call on a virtual thread of
 * its own once one of {@code concurrency} slots is free; passes each outcome the {@link
 * OutcomeRule} decides to the {@link ResolveBatcher}, and times each call for the {@link
 * ConsumerTimings}. Handlers are never interrupted.
 */
final class Dispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final Queue queue;
  private final BatchHandler handler;
  private final int batchSize;
  private final Semaphore slots;
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final ClaimBuffer buffer;
  private final LeaseKeeper leases;
  private final ClaimBudget budget;
  private final ResolveBatcher resolver;
  private final Claimer claimer;
  private final ConsumerTimings timings;
  private @Nullable Thread thread;

  Dispatcher(
      Queue queue,
      BatchHandler handler,
      int concurrency,
      int batchSize,
      ClaimBuffer buffer,
      LeaseKeeper leases,
      ClaimBudget budget,
      ResolveBatcher resolver,
      Claimer claimer,
      ConsumerTimings timings) {
    this.queue = queue;
    this.handler = handler;
    this.batchSize = batchSize;
    this.slots = new Semaphore(concurrency);
    this.buffer = buffer;
    this.leases = leases;
    this.budget = budget;
    this.resolver = resolver;
    this.claimer = claimer;
    this.timings = timings;
  }

  void start(String suffix) {
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("tenure-dispatch-" + suffix)
            .start(io.tenure.internal.logging.LogContext.inherit(this::loop));
  }

  /**
   * The dispatcher thread: it answers an interrupt at once, putting back a message it held; null
   * before {@link #start}.
   */
  @Nullable Thread thread() {
    return thread;
  }

  /** Lets running handlers finish; starts no more. */
  void shutdown() {
    handlers.shutdown();
  }

  private void loop() {
    BooleanSupplier active = claimer::claiming;
    while (active.getAsBoolean()) {
      QueueMessage message;
      try {
        message = buffer.poll(Claimer.MAX_POLL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      if (message == null) {
        continue;
      }
      try {
        slots.acquire();
      } catch (InterruptedException e) {
        buffer.putBack(message); // closing: released with the rest of the buffer
        return;
      }
      if (!active.getAsBoolean()) {
        slots.release();
        buffer.putBack(message);
        return;
      }
      List<QueueMessage> batch = new ArrayList<>(List.of(message));
      buffer.drainTo(batch, batchSize - 1);
      handlers.submit(io.tenure.internal.logging.LogContext.inherit(() -> handle(batch)));
    }
  }

  private void handle(List<QueueMessage> claimed) {
    // A message cancelled while it waited in the buffer is not started: its claim is gone.
    List<QueueMessage> batch = new ArrayList<>();
    for (QueueMessage message : claimed) {
      if (leases.cancellation(message.id()).cancelled()) {
        leases.finish(message.id());
        budget.resolved(1); // no outcome to write: the claim is gone
        LOG.info(
            "queue {}: message {} was cancelled before it started", queue.name(), message.id());
      } else {
        batch.add(message);
      }
    }
    for (QueueMessage message : batch) {
      leases.started(message.id(), OutcomeRule.timeoutOf(message, queue.policy()));
    }
    Throwable failure = null;
    if (!batch.isEmpty()) {
      long startedAt = timings.handlerStarts();
      try (var log =
          io.tenure.internal.logging.LogContext.with(
              io.tenure.LogKeys.MESSAGE_ID,
              batch.stream()
                  .map(m -> Long.toString(m.id()))
                  .collect(java.util.stream.Collectors.joining(",")))) {
        call(batch.stream().<Delivery>map(ClaimedDelivery::new).toList());
      } catch (Throwable thrown) {
        failure = thrown;
      }
      timings.handlerReturned(startedAt);
    }
    for (QueueMessage message : batch) {
      Resolution.Outcome outcome = OutcomeRule.decide(message, failure, queue.policy());
      if (failure != null && LOG.isDebugEnabled()) {
        LOG.debug(
            "queue {}: message {} failed on attempt {}: {}",
            queue.name(),
            message.id(),
            message.attempts(),
            OutcomeRule.describe(failure));
      }
      boolean held =
          leases.finish(
              message.id(),
              leaseSetAt -> resolver.add(new Resolution(message.claim(), outcome), leaseSetAt));
      if (held) {
        continue;
      }
      if (leases.cancellation(message.id()).cancelled()) {
        LOG.info(
            "queue {}: the handler of message {} returned after the consumer stopped waiting for it"
                + " (cancelled, timed out, or abandoned by closing); its outcome changes nothing",
            queue.name(),
            message.id());
      }
    }
    slots.release();
    if (budget.handled(claimed.size())) {
      claimer.wake();
    }
  }

  /** The handler, through the queue's middleware, outermost first. */
  private void call(List<Delivery> deliveries) throws Exception {
    List<io.tenure.QueueMiddleware> chain = queue.middleware();
    io.tenure.QueueMiddleware.Call next = () -> handler.handle(deliveries);
    for (int i = chain.size() - 1; i >= 0; i--) {
      io.tenure.QueueMiddleware m = chain.get(i);
      io.tenure.QueueMiddleware.Call inner = next;
      next = () -> m.aroundHandle(queue.name(), deliveries, inner);
    }
    next.proceed();
  }

  private final class ClaimedDelivery implements Delivery {
    private final QueueMessage message;
    private final Cancellation cancellation;

    ClaimedDelivery(QueueMessage message) {
      this.message = message;
      this.cancellation = leases.cancellation(message.id());
    }

    @Override
    public boolean cancelled() {
      return cancellation.cancelled();
    }

    @Override
    public void onCancel(Runnable callback) {
      if (callback == null) {
        throw new IllegalArgumentException("callback must not be null");
      }
      cancellation.onCancel(callback);
    }

    @Override
    public QueueMessage message() {
      return message;
    }

    @Override
    public boolean timedOut() {
      return cancellation.timedOut();
    }

    @Override
    public java.util.Optional<Duration> timeout() {
      return java.util.Optional.ofNullable(OutcomeRule.timeoutOf(message, queue.policy()));
    }

    @Override
    public void progress(double fraction, @Nullable String note) {
      leases.progress(message.id(), new MessageProgress(fraction, note));
    }

    @Override
    public boolean checkpoint(byte[] state) {
      if (state == null) {
        throw new IllegalArgumentException("checkpoint must not be null");
      }
      int limit = queue.policy().payloadLimit();
      if (state.length > limit) {
        throw new IllegalArgumentException(
            "checkpoint of "
                + state.length
                + " bytes is over queue "
                + queue.name()
                + "'s payload limit of "
                + limit
                + " bytes; nothing saved");
      }
      return !cancellation.cancelled() && leases.checkpoint(message.claim(), state);
    }

    @Override
    public boolean extendLease(Duration lease) {
      return leases.extend(message.claim(), lease);
    }
  }
}
