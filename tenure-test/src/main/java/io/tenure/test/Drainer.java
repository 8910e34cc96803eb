package io.tenure.test;

import io.tenure.MessageHandler;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.internal.testing.TestKitBridge;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The synchronous drain: claims one message at a time through the store's own claim, runs the
 * handler on the calling thread, decides the outcome with the consumer's rule and resolves it
 * through the store's own resolve, until no message of the queue is available by the store's clock.
 */
final class Drainer {
  /** The node id the drain's claims carry (operators would see it as the messages' owner). */
  static final String OWNER = "tenure-test-drain";

  /** The most messages one drain handles: beyond, a handler is feeding its own queue. */
  static final int MAX_MESSAGES = 10_000;

  private final QueueStore store;
  private final Ticker ticker;

  Drainer(QueueStore store, Ticker ticker) {
    this.store = store;
    this.ticker = ticker;
  }

  /**
   * @throws IllegalStateException if the queue still had messages available after {@link
   *     #MAX_MESSAGES} (the one claimed past the bound is given back)
   */
  DrainResult drain(Queue queue, MessageHandler handler) {
    Tally tally = new Tally();
    for (int attempts = 0; ; attempts++) {
      List<QueueMessage> claimed =
          store.claim(ClaimRequest.of(queue.name(), OWNER, 1, queue.policy().lease()));
      if (claimed.isEmpty()) {
        return tally.result(queue.name());
      }
      QueueMessage message = claimed.getFirst();
      if (attempts == MAX_MESSAGES) {
        store.resolve(List.of(new Resolution(message.claim(), new Resolution.Release())), null);
        throw new IllegalStateException(
            "drain of queue '"
                + queue.name()
                + "' ran "
                + MAX_MESSAGES
                + " attempts and messages are still available ("
                + tally.result(queue.name())
                + "): does its handler enqueue to its own queue, or retry with no backoff?");
      }
      handle(queue, message, handler, tally);
    }
  }

  private void handle(Queue queue, QueueMessage message, MessageHandler handler, Tally tally) {
    QueuePolicy policy = queue.policy();
    KitDelivery delivery = new KitDelivery(message, queue.name(), policy, store, ticker);
    Throwable failure = run(handler, delivery);
    Optional<Duration> overdue = delivery.timeout().filter(delivery::ranPast);
    Resolution.Outcome outcome =
        overdue.isPresent()
            ? TestKitBridge.timedOut(message, overdue.get(), policy)
            : TestKitBridge.outcome(message, failure, policy);
    if (overdue.isPresent()) {
      failure =
          new TimeoutException(
              "handler ran past its timeout of " + overdue.get() + " by the test clock");
    }
    if (failure != null) {
      tally.failures.add(new DrainResult.Failure(message.id(), message.attempts(), failure));
    }
    ResolveResult written = store.resolve(List.of(new Resolution(message.claim(), outcome)), null);
    if (!written.allApplied()) {
      tally.lost++;
      return;
    }
    switch (outcome) {
      case Resolution.Done done -> tally.handled++;
      case Resolution.Retry retry -> tally.retried++;
      case Resolution.DeadLetter dead -> tally.dead++;
      default -> throw new IllegalStateException("the outcome rule decided " + outcome);
    }
  }

  /**
   * @return what the handler threw, null if it returned; as on a node, anything thrown fails the
   *     attempt (an interrupt is kept on the thread)
   */
  private static @Nullable Throwable run(MessageHandler handler, KitDelivery delivery) {
    try {
      handler.handle(delivery);
      return null;
    } catch (Throwable thrown) {
      if (thrown instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return thrown;
    }
  }

  /** The counts of one drain so far. */
  private static final class Tally {
    int handled;
    int retried;
    int dead;
    int lost;
    final List<DrainResult.Failure> failures = new ArrayList<>();

    DrainResult result(String queue) {
      return new DrainResult(queue, handled, retried, dead, lost, failures);
    }
  }
}
