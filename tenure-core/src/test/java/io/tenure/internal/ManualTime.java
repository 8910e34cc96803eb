package io.tenure.internal;

import io.tenure.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A database clock and a monotonic ticker that move only when the test says so. */
public final class ManualTime {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final Instant origin = Instant.parse("2026-01-01T00:00:00Z");

  public Ticker ticker() {
    return nanos::get;
  }

  public InstantSource databaseClock() {
    return () -> origin.plusNanos(nanos.get());
  }

  public void advance(Duration by) {
    nanos.addAndGet(by.toNanos());
  }
}
