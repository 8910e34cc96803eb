package io.tenure.internal.queue;

import static io.tenure.internal.queue.ConsumerTimingsTest.countAtMost;
import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.ConsumerStats;
import io.tenure.DurationHistogram;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.inmemory.InMemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer's histograms, with both clocks in the test's hands: each handler moves the consumer's
 * ticker by its own amount, so its duration is exact, and the store's database clock is set once
 * before the claim, so each pickup is exact. One handler at a time, so no call's interval holds
 * another's step. Only how soon the consumer finishes is bounded (10 s).
 */
class QueueConsumerHistogramsTest {
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");
  private static final Map<String, Duration> RUNS =
      Map.of(
          "a", Duration.ofMillis(300),
          "b", Duration.ofMillis(300),
          "c", Duration.ofSeconds(2),
          "boom", Duration.ofMillis(40));

  private final AtomicReference<Instant> databaseNow = new AtomicReference<>(T);
  private final InMemoryStore store = InMemoryStore.builder().clock(databaseNow::get).build();
  private final AtomicLong ticker = new AtomicLong(123_456);
  private final Queue jobs =
      Queue.on(store.queues(), "jobs", QueuePolicy.defaults().withLease(Duration.ofHours(1)));
  private QueueConsumer consumer;

  @AfterEach
  void stop() {
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  @Test
  void a_new_consumer_has_counted_nothing_in_buckets_from_5_ms_to_5_min() {
    ConsumerStats stats = consumer().stats();

    assertThat(stats.timedOut()).isZero();
    for (DurationHistogram empty :
        new DurationHistogram[] {stats.handlerDuration(), stats.pickupLatency()}) {
      assertThat(empty.bounds()).isEqualTo(QueueHistogram.JOB_BOUNDS);
      assertThat(empty.counts()).containsOnly(0L);
      assertThat(empty.count()).isZero();
      assertThat(empty.sum()).isZero();
    }
  }

  @Test
  void each_handler_call_counts_its_ticker_time_and_each_claim_its_wait_on_the_database_clock()
      throws Exception {
    jobs.enqueue(OutgoingMessage.text("a"));
    jobs.enqueue(OutgoingMessage.text("b").delay(Duration.ofSeconds(10)));
    jobs.enqueue(OutgoingMessage.text("c"));
    jobs.enqueue(OutgoingMessage.text("boom"));
    databaseNow.set(T.plusSeconds(40)); // the claim's time: "b" waited 30 s, the others 40 s
    consumer = consumer();
    consumer.start();

    // "boom" is retried after its backoff, which never comes on the stopped database clock.
    until(
        () ->
            consumer.stats().handled() == 3
                && consumer.stats().retried() == 1
                && consumer.stats().handlerDuration().count() == 4);
    ConsumerStats stats = consumer.stats();

    DurationHistogram handler = stats.handlerDuration();
    assertThat(handler.sum()).isEqualTo(Duration.ofMillis(2_640));
    assertThat(countAtMost(handler, Duration.ofMillis(25))).isZero();
    assertThat(countAtMost(handler, Duration.ofMillis(50))).as("the one that threw").isEqualTo(1);
    assertThat(countAtMost(handler, Duration.ofMillis(250))).isEqualTo(1);
    assertThat(countAtMost(handler, Duration.ofMillis(500))).isEqualTo(3);
    assertThat(countAtMost(handler, Duration.ofSeconds(1))).isEqualTo(3);
    assertThat(countAtMost(handler, Duration.ofMillis(2_500))).isEqualTo(4);
    DurationHistogram pickup = stats.pickupLatency();
    assertThat(pickup.count()).isEqualTo(4);
    assertThat(pickup.sum()).isEqualTo(Duration.ofSeconds(150));
    assertThat(countAtMost(pickup, Duration.ofSeconds(10))).isZero();
    assertThat(countAtMost(pickup, Duration.ofSeconds(30))).isEqualTo(1);
    assertThat(countAtMost(pickup, Duration.ofMinutes(1))).isEqualTo(4);
    assertThat(stats.timedOut()).isZero();
  }

  private QueueConsumer consumer() {
    return new QueueConsumer(
        store.queues(),
        ConsumerSpec.single(
            jobs,
            1,
            d -> {
              String payload = new String(d.message().payload(), StandardCharsets.UTF_8);
              ticker.addAndGet(RUNS.get(payload).toNanos());
              if (payload.equals("boom")) {
                throw new IllegalStateException("boom");
              }
            }),
        () -> "node-1",
        () -> true,
        ticker::get);
  }

  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
