package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.QUEUE;
import static io.tenure.bench.QueueBenchSupport.await;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.enqueue;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.ms;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.MessageHandler;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueLimits;
import io.tenure.QueuePolicy;
import io.tenure.QueueSettings;
import io.tenure.QueueStats;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.bench.QueueBenchSupport.Commits;
import io.tenure.bench.QueueBenchSupport.FirstSeen;
import io.tenure.bench.QueueBenchSupport.Latency;
import io.tenure.bench.QueueBenchSupport.Rate;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** Tenure's own runs: one node draining a pre-filled queue, and pickup latency on an idle queue. */
final class TenureQueueRuns {
  /** The store's own pool: a consumer needs one claimer and one resolver connection at a time. */
  static final int POOL_SIZE = 10;

  private TenureQueueRuns() {}

  /**
   * Pre-fills a queue on a fresh prefix, then times one node with a no-op consumer from {@code
   * start()} until the queue has nothing pending or in flight.
   */
  static Rate drain(String url, int messages, int concurrency) throws Exception {
    return drain(url, messages, concurrency, QueueLimits.none(), 0);
  }

  /**
   * As {@link #drain(String, int, int)}, with the queue's limits set before the node starts and the
   * messages spread round robin over {@code groups} groups (0: no group).
   */
  static Rate drain(String url, int messages, int concurrency, QueueLimits limits, int groups)
      throws Exception {
    String setting =
        "concurrency "
            + concurrency
            + (limits.unlimited() ? ", no limit" : ", " + describe(limits))
            + (groups > 0 ? ", " + groups + " groups" : "");
    TablePrefix prefix = freshPrefix();
    Commits commits = new Commits(url);
    Rate rate;
    try (JdbcStore store =
        JdbcStore.builder().url(url).prefix(prefix).poolSize(POOL_SIZE).build()) {
      Queue queue = Queue.on(store.queues(), QUEUE, QueuePolicy.defaults());
      enqueue(queue, messages, groups);
      if (!limits.unlimited()) {
        queue.limit(limits);
      }
      LongAdder handled = new LongAdder();
      FirstSeen first = new FirstSeen();
      TenureNode node =
          TenureNode.builder(store)
              .name("bench")
              .consumer(
                  queue,
                  concurrency,
                  delivery -> {
                    first.seen();
                    handled.increment();
                  })
              .build();
      commits.start();
      long start = System.nanoTime();
      node.start();
      long started = System.nanoTime() - start;
      try {
        // The stats read scans the table; reading it every 10 ms while the node works would slow
        // the node down, so it is polled only once the handlers have seen every message.
        boolean drained =
            await(Duration.ofMillis(1), () -> handled.sum() >= messages)
                && await(Duration.ofMillis(10), () -> unfinished(queue) == 0);
        long nanos = System.nanoTime() - start;
        String note = "start() " + ms(started) + ", " + first.since(start);
        rate =
            drained
                ? new Rate("Tenure drain", storeName(url), setting, messages, nanos, note)
                : Rate.notFinished("Tenure drain", storeName(url), setting, messages);
      } finally {
        node.close();
      }
    } finally {
      cleanUp(url, prefix);
    }
    return rate.noted(commits.counted());
  }

  private static String describe(QueueLimits limits) {
    List<String> parts = new ArrayList<>();
    if (limits.maxInFlight() > 0) {
      parts.add("at most " + limits.maxInFlight() + " in flight");
    }
    if (limits.maxInFlightPerGroup() > 0) {
      parts.add(limits.maxInFlightPerGroup() + " per group");
    }
    return String.join(", ", parts);
  }

  private static long unfinished(Queue queue) {
    QueueStats stats = queue.stats();
    return stats.pending() + stats.inflight();
  }

  /** {@link #pickup(String, int, Duration, int, boolean)} with wake-ups, the default. */
  static Latency pickup(String url, int messages, Duration every, int concurrency)
      throws Exception {
    return pickup(url, messages, every, concurrency, true);
  }

  /**
   * With a node consuming an empty queue, sends one message every {@code every}, each carrying its
   * {@code System.nanoTime()}, and records how long after that each handler saw its message. The
   * time includes the enqueue's own commit. Queue and node come from one {@link Tenure}, as an
   * application's would: its enqueues wake the node's consumer (a datagram on loopback) unless
   * {@code wakeups} is off, when the consumer finds each message by polling.
   */
  static Latency pickup(String url, int messages, Duration every, int concurrency, boolean wakeups)
      throws Exception {
    TablePrefix prefix = freshPrefix();
    List<Long> waits = Collections.synchronizedList(new ArrayList<>());
    MessageHandler handler =
        delivery -> waits.add(System.nanoTime() - Long.parseLong(delivery.text()));
    try (Tenure tenure =
        Tenure.on(
            JdbcStore.builder().url(url).prefix(prefix).poolSize(POOL_SIZE).build(), "bench")) {
      Queue queue = tenure.queue(QUEUE, QueuePolicy.defaults());
      TenureNode node =
          tenure
              .node()
              .name("bench")
              .wakeups(wakeups, QueueSettings.DEFAULT_WAKE_HOST)
              .consumer(queue, concurrency, handler)
              .build();
      node.start();
      try {
        // Idle long enough for the consumer's poll interval to back off to its longest.
        Thread.sleep(2_000);
        send(queue, messages, every);
        if (!await(Duration.ofMillis(10), () -> waits.size() >= messages)) {
          throw new IllegalStateException(
              "only "
                  + waits.size()
                  + " of "
                  + messages
                  + " messages were handled on "
                  + storeName(url)
                  + " within "
                  + QueueBenchSupport.BOUND);
        }
      } finally {
        node.close();
      }
    } finally {
      cleanUp(url, prefix);
    }
    List<Long> sorted = new ArrayList<>(waits);
    Collections.sort(sorted);
    return new Latency(
        storeName(url) + (wakeups ? "" : " (wake-ups off)"),
        messages,
        waits.get(0),
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted.get(sorted.size() - 1));
  }

  /** One message every {@code every}, on a fixed schedule so a slow enqueue does not stretch it. */
  private static void send(Queue queue, int messages, Duration every) throws InterruptedException {
    long next = System.nanoTime();
    for (int i = 0; i < messages; i++) {
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        Thread.sleep(Duration.ofNanos(sleep));
      }
      queue.enqueue(OutgoingMessage.text(Long.toString(System.nanoTime())));
      next += every.toNanos();
    }
  }

  /** Nearest rank. */
  private static long percentile(List<Long> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }
}
