package io.tenure.bench;

import java.time.Duration;
import java.util.Locale;

/**
 * One JVM's share of an old-against-new queue comparison ({@code scripts/bench-compare.sh}): a
 * discarded warm-up drain, then one drain of {@code messages} at {@code concurrency} and one pickup
 * run (200 messages, one every 50 ms), printed as one table row. It calls only {@link
 * TenureQueueRuns}'s {@code drain} and {@code pickup}, which every commit since the queue benchmark
 * has, so the same source compiles against an older benchmark jar and measures that jar's code.
 *
 * <p>Kept outside {@code src/main}: the script compiles it against each jar in turn.
 */
public final class QueueSideBySide {
  private QueueSideBySide() {}

  /**
   * @param args label, PostgreSQL URL, messages, concurrency
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    String label = args[0];
    String url = args[1];
    int messages = Integer.parseInt(args[2]);
    int concurrency = Integer.parseInt(args[3]);
    TenureQueueRuns.drain(url, 2_000, 16);
    QueueBenchSupport.Rate rate = TenureQueueRuns.drain(url, messages, concurrency);
    QueueBenchSupport.Latency latency =
        TenureQueueRuns.pickup(url, 200, Duration.ofMillis(50), concurrency);
    System.out.printf(
        Locale.ROOT,
        "| %s | %,d msg/s | %.1f ms | %.1f ms | %.1f ms |%n",
        label,
        Math.round(rate.perSecond()),
        latency.p50() / 1e6,
        latency.p90() / 1e6,
        latency.p99() / 1e6);
  }
}
