package io.tenure.internal.queue;

import io.tenure.DurationHistogram;
import io.tenure.Limits;
import io.tenure.QueueMessage;
import io.tenure.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * One consumer's two histograms (docs/ADMIN-API.md#metrics): how long each handler call ran, on the
 * consumer's ticker, and how long each claimed message had been available when it was claimed, on
 * the database clock. Neither counts the wait in the claim buffer between the claim and the
 * handler's start.
 */
final class ConsumerTimings {
  private final Ticker ticker;
  private final Duration lease;
  private final QueueHistogram handler = new QueueHistogram();
  private final QueueHistogram pickup = new QueueHistogram();

  /**
   * @param lease the lease every claim of the consumer asks for
   */
  ConsumerTimings(Ticker ticker, Duration lease) {
    this.ticker = ticker;
    this.lease = lease;
  }

  /**
   * @return the ticker reading a handler call starts at, for {@link #handlerReturned}
   */
  long handlerStarts() {
    return ticker.read();
  }

  /**
   * Counts a handler call, once whatever its batch size, that started at {@code startedAt} and has
   * just returned or thrown; one the consumer stopped waiting for (timed out, cancelled) counts
   * when it returns.
   */
  void handlerReturned(long startedAt) {
    handler.record(ticker.read() - startedAt);
  }

  /** Counts the pickup latency of each message of a claim. */
  void claimed(List<QueueMessage> messages) {
    for (QueueMessage message : messages) {
      pickupNanos(message, lease).ifPresent(pickup::record);
    }
  }

  DurationHistogram handlerDuration() {
    return handler.snapshot();
  }

  DurationHistogram pickupLatency() {
    return pickup.snapshot();
  }

  /**
   * How long {@code claimed} had been available when it was claimed, both ends read by the database
   * clock: from its {@code available_at} (its enqueue plus its delay, or when a retry, reschedule
   * or reclaim made it available again; a release keeps it) to the claim's {@code now()}, which is
   * its {@code lease_until} less the lease the claim asked for (SPI rule Q10). Clamped to zero
   * (timestamps rounded by the database) and to {@link Limits#MAX_RETENTION} (a hand-written row),
   * so the sum cannot overflow.
   *
   * @return empty if the message carries no lease, so it is not a claim
   */
  static OptionalLong pickupNanos(QueueMessage claimed, Duration lease) {
    Instant leaseUntil = claimed.leaseUntil();
    if (leaseUntil == null) {
      return OptionalLong.empty();
    }
    Duration waited = Duration.between(claimed.availableAt(), leaseUntil.minus(lease));
    if (waited.isNegative()) {
      return OptionalLong.of(0);
    }
    if (waited.compareTo(Limits.MAX_RETENTION) > 0) {
      return OptionalLong.of(Limits.MAX_RETENTION.toNanos());
    }
    return OptionalLong.of(waited.toNanos());
  }
}
