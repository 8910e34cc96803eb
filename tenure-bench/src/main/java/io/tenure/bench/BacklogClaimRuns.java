package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.ENQUEUE_BATCH;
import static io.tenure.bench.QueueBenchSupport.QUEUE;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The claim that the MariaDB soak found growing with the backlog: a FIFO queue whose pending
 * messages belong to a few keys, every key's head in flight. Each claim then finds nothing; what it
 * costs is what every idle poll of every consumer pays while the heads are handled.
 */
final class BacklogClaimRuns {
  private static final int KEYS = 8;
  private static final int CLAIMS = 50;
  private static final Duration LEASE = Duration.ofMinutes(5);

  private BacklogClaimRuns() {}

  /**
   * One line per store: median and slowest of {@value #CLAIMS} claims of 10 from a blocked backlog.
   */
  static String run(String url, int backlog) throws Exception {
    TablePrefix prefix = freshPrefix();
    try (JdbcStore store = JdbcStore.builder().url(url).prefix(prefix).build()) {
      QueueStore queues = store.queues();
      for (int filled = 0; filled < backlog; filled += ENQUEUE_BATCH) {
        List<NewMessage> batch = new ArrayList<>();
        for (int i = filled; i < Math.min(backlog, filled + ENQUEUE_BATCH); i++) {
          batch.add(
              new NewMessage(
                  QUEUE,
                  "key-" + i % KEYS,
                  new byte[] {1},
                  "text/plain",
                  Map.of(),
                  0,
                  3,
                  Duration.ZERO,
                  null));
        }
        queues.enqueue(batch);
      }
      int heads = queues.claim(ClaimRequest.of(QUEUE, "bench", KEYS, LEASE)).size();
      if (heads != KEYS) {
        throw new IllegalStateException("expected the " + KEYS + " heads, claimed " + heads);
      }
      ClaimRequest claim = ClaimRequest.of(QUEUE, "bench", 10, LEASE);
      long[] nanos = new long[CLAIMS];
      for (int i = 0; i < CLAIMS; i++) {
        long start = System.nanoTime();
        int claimed = queues.claim(claim).size();
        nanos[i] = System.nanoTime() - start;
        if (claimed != 0) {
          throw new IllegalStateException("a blocked backlog gave " + claimed + " messages");
        }
      }
      Arrays.sort(nanos);
      return String.format(
          Locale.ROOT,
          "| blocked-backlog claim | %s | %,d pending of %d keys, heads in flight, claim 10"
              + " | %d | median %.2f ms, slowest %.2f ms |",
          storeName(url),
          backlog,
          KEYS,
          CLAIMS,
          nanos[CLAIMS / 2] / 1e6,
          nanos[CLAIMS - 1] / 1e6);
    } finally {
      cleanUp(url, prefix);
    }
  }
}
