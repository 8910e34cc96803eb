package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.await;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Schedules;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.bench.LockRuns.Samples;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Schedule fire lag: N interval schedules on one queue, one node that leads (and so fires) and
 * consumes the queue, and for each slot in a measured window how late its message was written and
 * how late a handler saw it. The slot is read from the message's dedupe key ({@code
 * tenure-schedule:NAME@MICROS}), the write time from its {@code created_at} (the database's clock
 * at the insert, inside the fire's transaction, just before its commit), the handler's time from
 * the JVM's clock (the same host's clock as the database's).
 */
final class FireLagRuns {
  private static final String QUEUE = "bench-schedules";
  private static final String PREFIX = "tenure-schedule:";

  /** Consumer threads: enough that 1,000 messages due at once do not wait for a handler. */
  private static final int CONCURRENCY = 16;

  private FireLagRuns() {}

  /** How the schedules' slots fall within their interval. */
  enum Shape {
    /** Slot of schedule i at i x interval / N past each whole interval: evenly spread. */
    SPREAD("spread over the interval"),
    /** Every schedule's slots on the whole intervals: N slots due at the same instant. */
    ALIGNED("all due at the same instant");

    final String label;

    Shape(String label) {
      this.label = label;
    }
  }

  /**
   * One run: lags in nanoseconds over the measured slots; {@code missing} slots of the window never
   * seen, {@code duplicates} seen twice.
   */
  record Result(
      String store,
      Shape shape,
      int schedules,
      Duration interval,
      long declareNanos,
      int slots,
      long missing,
      long duplicates,
      Samples written,
      Samples handled) {}

  /**
   * Declares {@code schedules} schedules every {@code interval} on a fresh table prefix, starts one
   * node, and measures the slots in the {@code periods} whole intervals that follow one interval of
   * warm-up after the node first leads.
   */
  static Result run(String url, Shape shape, int schedules, Duration interval, int periods)
      throws Exception {
    TablePrefix prefix = freshPrefix();
    Map<String, Long> writtenLag = new ConcurrentHashMap<>();
    Map<String, Long> handledLag = new ConcurrentHashMap<>();
    Map<String, Integer> seen = new ConcurrentHashMap<>();
    try (Tenure tenure =
        Tenure.builder(url).prefix(prefix.value()).name("bench").poolSize(10).open()) {
      Queue queue = tenure.queue(QUEUE, QueuePolicy.defaults());
      long declareStart = System.nanoTime();
      declare(tenure.schedules(), queue, shape, schedules, interval);
      long declareNanos = System.nanoTime() - declareStart;
      TenureNode node =
          tenure
              .node()
              .name("bench")
              .consumer(
                  queue,
                  CONCURRENCY,
                  delivery -> {
                    Instant now = Instant.now();
                    QueueMessage message = delivery.message();
                    String key = message.dedupeKey();
                    Instant slot = slotOf(key);
                    seen.merge(key, 1, Integer::sum);
                    writtenLag.put(key, nanos(slot, message.createdAt()));
                    handledLag.put(key, nanos(slot, now));
                  })
              .build();
      node.start();
      try {
        if (!await(Duration.ofMillis(10), node::isLeader)) {
          throw new IllegalStateException("the node did not lead on " + storeName(url));
        }
        // One interval of warm-up: the slots due before the node led fire late, all at once.
        Instant from = Instant.now().plus(interval).truncatedTo(ChronoUnit.SECONDS);
        Instant to = from.plus(interval.multipliedBy(periods));
        int expected = schedules * periods;
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), to).toMillis()));
        await(Duration.ofMillis(50), () -> inWindow(seen, from, to) >= expected);
        Samples written = new Samples();
        Samples handled = new Samples();
        long duplicates = 0;
        int slots = 0;
        for (Map.Entry<String, Integer> entry : seen.entrySet()) {
          Instant slot = slotOf(entry.getKey());
          if (slot.isBefore(from) || !slot.isBefore(to)) {
            continue;
          }
          slots++;
          duplicates += entry.getValue() - 1;
          written.add(writtenLag.get(entry.getKey()));
          handled.add(handledLag.get(entry.getKey()));
        }
        return new Result(
            storeName(url),
            shape,
            schedules,
            interval,
            declareNanos,
            slots,
            expected - slots,
            duplicates,
            written,
            handled);
      } finally {
        node.close();
      }
    } finally {
      cleanUp(url, prefix);
    }
  }

  /** Declares the schedules one by one, as nodes do at start. */
  private static void declare(
      Schedules schedules, Queue queue, Shape shape, int count, Duration interval) {
    for (int i = 0; i < count; i++) {
      Schedule schedule = Schedule.every("lag-" + i, interval);
      if (shape == Shape.SPREAD) {
        schedule =
            schedule.startingAt(Instant.EPOCH.plus(interval.multipliedBy(i).dividedBy(count)));
      }
      if (schedules.declare(schedule.enqueue(queue, OutgoingMessage.text("slot")))
          != Schedules.Declared.CREATED) {
        throw new IllegalStateException("schedule lag-" + i + " was not created afresh");
      }
    }
  }

  private static long inWindow(Map<String, Integer> seen, Instant from, Instant to) {
    return seen.keySet().stream()
        .map(FireLagRuns::slotOf)
        .filter(slot -> !slot.isBefore(from) && slot.isBefore(to))
        .count();
  }

  /** The slot a schedule message stands for, from its dedupe key's microseconds. */
  static Instant slotOf(String dedupeKey) {
    if (dedupeKey == null || !dedupeKey.startsWith(PREFIX)) {
      throw new IllegalStateException("not a schedule slot's message: " + dedupeKey);
    }
    long micros = Long.parseLong(dedupeKey.substring(dedupeKey.lastIndexOf('@') + 1));
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  private static long nanos(Instant from, Instant to) {
    return Duration.between(from, to).toNanos();
  }
}
