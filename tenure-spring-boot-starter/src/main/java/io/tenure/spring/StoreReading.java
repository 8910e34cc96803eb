package io.tenure.spring;

import io.tenure.Ticker;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A store read that gauges share: read again when a gauge asks and the last read is older than
 * {@code maxAge}, so that every value is at most that old however often, or rarely, anything reads
 * the gauges, and a scrape of many gauges costs one read. A failed read gives nothing (the gauges
 * then report NaN) rather than a stale value that looks current.
 */
final class StoreReading<T> {
  private final Supplier<T> read;
  private final Ticker ticker;
  private final long maxAgeNanos;
  private @Nullable T value;
  private long readAt;

  StoreReading(Supplier<T> read, Ticker ticker, Duration maxAge) {
    this.read = read;
    this.ticker = ticker;
    this.maxAgeNanos = maxAge.toNanos();
  }

  /**
   * @return the latest read, at most {@code maxAge} old; null if the store could not be read
   */
  synchronized @Nullable T get() {
    long now = ticker.read();
    if (value == null || now - readAt >= maxAgeNanos) {
      try {
        value = read.get();
        readAt = now;
      } catch (RuntimeException e) {
        value = null;
      }
    }
    return value;
  }
}
