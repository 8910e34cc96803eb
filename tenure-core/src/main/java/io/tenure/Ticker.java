package io.tenure;

/**
 * A monotonic clock in nanoseconds, for local deadlines only (never for expiry, which is the
 * database's). Tests inject a settable one.
 */
@FunctionalInterface
public interface Ticker {
  /**
   * @return nanoseconds from an arbitrary origin; only differences mean anything
   */
  long read();

  /**
   * @return {@link System#nanoTime()}
   */
  static Ticker system() {
    return System::nanoTime;
  }
}
