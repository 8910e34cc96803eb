package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.CancelOutcome;
import io.tenure.Delivery;
import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.QueueStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cancel reaches the handler that runs the message (SPEC §12.3): its delivery turns cancelled and
 * its callback runs, and the done it returns anyway is a lost claim that changes nothing. A message
 * cancelled while it waits in the consumer's buffer is never started. The handlers wait on latches,
 * so the order of events is fixed; only how soon the consumer notices is bounded (10 s).
 */
class QueueConsumerCancelTest {
  private final InMemoryStore store = InMemoryStore.create();
  private final Queue jobs =
      Queue.on(store.queues(), "cancels", QueuePolicy.defaults().withLease(Duration.ofMinutes(5)));
  private final CountDownLatch release = new CountDownLatch(1);
  private QueueConsumer consumer;

  @AfterEach
  void stop() {
    release.countDown();
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  @Test
  void a_running_handler_is_told_and_its_done_changes_nothing() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch told = new CountDownLatch(1);
    AtomicReference<Delivery> seen = new AtomicReference<>();
    consumer =
        consumer(
            d -> {
              seen.set(d);
              d.onCancel(told::countDown);
              started.countDown();
              release.await(); // ignores the cancel until the test lets it go
            });
    long id = jobs.enqueue(OutgoingMessage.text("long job"));
    consumer.start();
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(seen.get().cancelled()).isFalse();

    assertThat(store.queues().cancel(id)).isEqualTo(CancelOutcome.CANCELLED_RUNNING);

    assertThat(told.await(10, TimeUnit.SECONDS)).as("the callback ran").isTrue();
    assertThat(seen.get().cancelled()).isTrue();
    release.countDown();
    until(() -> consumer.stats().lostClaims() == 1);
    assertThat(consumer.stats().handled()).isZero();
    assertThat(jobs.message(id).orElseThrow().status()).isEqualTo(MessageStatus.CANCELLED);
  }

  @Test
  void a_callback_registered_after_the_cancel_runs_at_once_and_only_once() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<Delivery> seen = new AtomicReference<>();
    consumer =
        consumer(
            d -> {
              seen.set(d);
              started.countDown();
              release.await();
            });
    long id = jobs.enqueue(OutgoingMessage.text("job"));
    consumer.start();
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    store.queues().cancel(id);
    until(() -> seen.get().cancelled());

    List<String> calls = new CopyOnWriteArrayList<>();
    CountDownLatch ran = new CountDownLatch(1);
    seen.get()
        .onCancel(
            () -> {
              calls.add("late");
              ran.countDown();
            });

    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(100); // a second run would land within this
    assertThat(calls).containsExactly("late");
  }

  @Test
  void a_message_cancelled_in_the_buffer_is_never_started() throws Exception {
    List<String> started = new CopyOnWriteArrayList<>();
    CountDownLatch first = new CountDownLatch(1);
    CountDownLatch watchedAfterCancel = new CountDownLatch(1);
    AtomicBoolean reported = new AtomicBoolean();
    QueueStore watched =
        (QueueStore)
            Proxy.newProxyInstance(
                QueueStore.class.getClassLoader(),
                new Class<?>[] {QueueStore.class},
                (proxy, method, args) -> {
                  Object result;
                  try {
                    result = method.invoke(store.queues(), args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("lostClaims")) {
                    // The watch sets the signals of what one call reports before its next call.
                    if (reported.get()) {
                      watchedAfterCancel.countDown();
                    } else if (!((Set<?>) result).isEmpty()) {
                      reported.set(true);
                    }
                  }
                  return result;
                });
    consumer =
        consumer(
            watched,
            d -> {
              started.add(d.text());
              first.countDown();
              if (d.text().equals("first")) {
                release.await();
              }
            });
    long one = jobs.enqueue(OutgoingMessage.text("first"));
    long two = jobs.enqueue(OutgoingMessage.text("second"));
    consumer.start();
    assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
    until(() -> jobs.stats().inflight() == 2); // the second waits in the buffer, claimed

    assertThat(store.queues().cancel(two)).isEqualTo(CancelOutcome.CANCELLED_RUNNING);
    assertThat(watchedAfterCancel.await(10, TimeUnit.SECONDS)).isTrue();
    release.countDown();

    until(() -> jobs.message(one).isEmpty()); // the first is done (deleted)
    until(() -> consumer.stats().inflight() == 0);
    assertThat(started).containsExactly("first");
    assertThat(jobs.message(two).orElseThrow().status()).isEqualTo(MessageStatus.CANCELLED);
  }

  private QueueConsumer consumer(io.tenure.MessageHandler handler) {
    return consumer(store.queues(), handler);
  }

  private QueueConsumer consumer(QueueStore queues, io.tenure.MessageHandler handler) {
    return new QueueConsumer(
        queues, ConsumerSpec.single(jobs, 1, handler), () -> "node-1", () -> true);
  }

  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
