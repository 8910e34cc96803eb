package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Delivery;
import io.tenure.MessageProgress;
import io.tenure.MessageStatus;
import io.tenure.OnTimeout;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Timeouts and progress in a consumer (SPEC §12.4, §12.5), on an injected ticker: the timeout
 * counts from the handler's start, not from the claim; one nanosecond short of it nothing happens,
 * at it the handler is told and the message resolved; progress is written once per second of the
 * ticker, the latest report only. The handlers wait on latches; only how soon the consumer's loop
 * notices a step of the ticker is bounded (10 s).
 */
class QueueConsumerTimeoutTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final InMemoryStore store = InMemoryStore.create();
  private final AtomicLong now = new AtomicLong();
  private final CountDownLatch release = new CountDownLatch(1);
  private QueueConsumer consumer;

  @AfterEach
  void stop() {
    release.countDown();
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private Queue queue(QueuePolicy policy) {
    return Queue.on(store.queues(), "slow", policy.withLease(Duration.ofHours(1)));
  }

  private QueueConsumer start(Queue queue, io.tenure.MessageHandler handler) {
    QueueConsumer started =
        new QueueConsumer(
            store.queues(),
            ConsumerSpec.single(queue, 1, handler),
            () -> "node-1",
            () -> true,
            now::get);
    started.start();
    return started;
  }

  @Test
  void the_timeout_counts_from_the_handlers_start_and_tells_it_exactly_at_the_deadline()
      throws Exception {
    Queue jobs =
        queue(QueuePolicy.defaults().withBackoff(Duration.ofHours(1), 2, Duration.ofHours(1), 0));
    now.set(Duration.ofMinutes(5).toNanos()); // time that passes before the start does not count
    long id = jobs.enqueue(OutgoingMessage.text("slow").timeout(TIMEOUT));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch told = new CountDownLatch(1);
    AtomicReference<Delivery> seen = new AtomicReference<>();
    consumer =
        start(
            jobs,
            d -> {
              seen.set(d);
              d.onCancel(told::countDown);
              started.countDown();
              release.await();
            });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    long start = now.get();

    now.set(start + TIMEOUT.toNanos() - 1);
    // The consumer's loop runs every few milliseconds; a wrong deadline would fire in these.
    Thread.sleep(100);
    assertThat(seen.get().timedOut()).as("one nanosecond short").isFalse();
    assertThat(consumer.stats().timedOut()).isZero();
    assertThat(jobs.message(id).orElseThrow().status()).isEqualTo(MessageStatus.INFLIGHT);

    now.set(start + TIMEOUT.toNanos());

    assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(seen.get().timedOut()).isTrue();
    until(() -> jobs.message(id).orElseThrow().status() == MessageStatus.PENDING);
    assertThat(jobs.message(id).orElseThrow().lastError())
        .isEqualTo("timed out after PT30S on attempt 1 of 10");
    release.countDown();
    until(() -> consumer.stats().retried() == 1);
    assertThat(consumer.stats().handled()).isZero();
    assertThat(consumer.stats().lostClaims()).as("its outcome was never sent").isZero();
    assertThat(consumer.stats().timedOut()).isEqualTo(1);
    until(() -> consumer.stats().handlerDuration().count() == 1);
    assertThat(consumer.stats().handlerDuration().sum())
        .as("counted when it returned, after running on past its timeout")
        .isEqualTo(TIMEOUT);
  }

  @Test
  void a_queue_timeout_can_make_the_message_dead_and_a_checkpoint_after_it_is_refused()
      throws Exception {
    Queue jobs = queue(QueuePolicy.defaults().withTimeout(TIMEOUT, OnTimeout.DEAD_LETTER));
    long id = jobs.enqueue(OutgoingMessage.text("slow"));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch told = new CountDownLatch(1);
    AtomicReference<Boolean> saved = new AtomicReference<>();
    consumer =
        start(
            jobs,
            d -> {
              d.onCancel(told::countDown);
              started.countDown();
              release.await();
              saved.set(d.checkpoint(new byte[] {1}));
            });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    now.addAndGet(TIMEOUT.toNanos());

    assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
    until(() -> jobs.message(id).orElseThrow().status() == MessageStatus.DEAD);
    release.countDown();
    until(() -> saved.get() != null);
    assertThat(saved.get()).as("its claim is gone").isFalse();
    assertThat(jobs.message(id).orElseThrow().checkpoint()).isNull();
  }

  @Test
  void progress_is_written_once_a_second_of_the_ticker_the_latest_report_only() throws Exception {
    Queue jobs = queue(QueuePolicy.defaults());
    long id = jobs.enqueue(OutgoingMessage.text("long"));
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch next = new CountDownLatch(1);
    CountDownLatch reportedAgain = new CountDownLatch(1);
    consumer =
        start(
            jobs,
            d -> {
              d.progress(0.1, "first");
              d.progress(0.2, "second");
              reported.countDown();
              next.await();
              d.progress(0.9, "almost");
              reportedAgain.countDown();
              release.await();
            });
    assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(100); // the loop runs meanwhile: nothing is written before the second passes
    assertThat(jobs.message(id).orElseThrow().progress()).isNull();

    now.addAndGet(Duration.ofSeconds(1).toNanos());

    until(() -> new MessageProgress(0.2, "second").equals(progress(jobs, id)));
    next.countDown();
    assertThat(reportedAgain.await(10, TimeUnit.SECONDS)).isTrue();
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    until(() -> new MessageProgress(0.9, "almost").equals(progress(jobs, id)));
  }

  private static MessageProgress progress(Queue jobs, long id) {
    QueueMessage message = jobs.message(id).orElseThrow();
    return message.progress();
  }

  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
