package io.tenure.test;

import io.tenure.Delivery;
import io.tenure.MessageProgress;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.internal.testing.TestKitBridge;
import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A claimed message as a handler sees it during a {@link TenureTestKit#drain}: its claim is the
 * store's own, so extending, progress and checkpoints are written as a node writes them, and a
 * claim lost meanwhile (the handler cancelled its own message) is seen at once.
 */
final class KitDelivery implements Delivery {
  private final QueueMessage message;
  private final String queue;
  private final QueuePolicy policy;
  private final QueueStore store;
  private final Ticker ticker;
  private final long startedAt;

  KitDelivery(
      QueueMessage message, String queue, QueuePolicy policy, QueueStore store, Ticker ticker) {
    this.message = message;
    this.queue = queue;
    this.policy = policy;
    this.store = store;
    this.ticker = ticker;
    this.startedAt = ticker.read();
  }

  @Override
  public QueueMessage message() {
    return message;
  }

  @Override
  public boolean extendLease(Duration lease) {
    return store.extend(message.claim(), lease);
  }

  /** True once the claim no longer holds, or the handler ran past its timeout. */
  @Override
  public boolean cancelled() {
    return timedOut() || !store.lostClaims(List.of(message.claim())).isEmpty();
  }

  /** Runs the callback at once, on the calling thread, if already cancelled; never later. */
  @Override
  public void onCancel(Runnable callback) {
    if (callback == null) {
      throw new IllegalArgumentException("callback must not be null");
    }
    if (cancelled()) {
      callback.run();
    }
  }

  @Override
  public boolean timedOut() {
    return timeout().map(this::ranPast).orElse(false);
  }

  @Override
  public Optional<Duration> timeout() {
    return TestKitBridge.timeoutOf(message, policy);
  }

  @Override
  public void progress(double fraction, @Nullable String note) {
    store.progress(message.claim(), new MessageProgress(fraction, note));
  }

  @Override
  public boolean checkpoint(byte[] state) {
    if (state == null) {
      throw new IllegalArgumentException("checkpoint must not be null");
    }
    if (state.length > policy.payloadLimit()) {
      throw new IllegalArgumentException(
          "checkpoint of "
              + state.length
              + " bytes is over queue "
              + queue
              + "'s payload limit of "
              + policy.payloadLimit()
              + " bytes; nothing saved");
    }
    return store.checkpoint(message.claim(), state);
  }

  /** Whether the handler has run for {@code timeout} or longer, by the test's ticker. */
  boolean ranPast(Duration timeout) {
    return ticker.read() - startedAt >= timeout.toNanos();
  }
}
