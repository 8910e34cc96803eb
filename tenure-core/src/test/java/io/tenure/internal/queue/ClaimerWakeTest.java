package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.QueueStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A wake-up that arrives while every claimer is inside a claim that came back empty is remembered:
 * the claimer claims again instead of sleeping a whole poll interval on it. The claims are held at
 * a gate after the store answered, so the race is forced, not hoped for; the poll is an hour, so
 * only the wake-up can bring the message in.
 */
class ClaimerWakeTest {
  private static final Duration HOUR = Duration.ofHours(1);
  private final InMemoryStore store = InMemoryStore.create();
  private final CountDownLatch bothInGate = new CountDownLatch(FetchAhead.LANES);
  private final CountDownLatch openGate = new CountDownLatch(1);
  private final AtomicInteger gated = new AtomicInteger(FetchAhead.LANES);
  private QueueConsumer consumer;

  @AfterEach
  void close() {
    openGate.countDown();
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(1));
    }
  }

  @Test
  void a_wake_up_during_an_empty_claim_makes_the_claimer_claim_again_at_once() throws Exception {
    QueueStore held = heldAfterClaim(store.queues());
    Queue jobs = Queue.on(held, "woken", QueuePolicy.defaults());
    CountDownLatch handled = new CountDownLatch(1);
    consumer =
        new QueueConsumer(
            held,
            ConsumerSpec.single(jobs, 1, d -> handled.countDown()),
            () -> "node-1",
            () -> true,
            Ticker.system(),
            HOUR,
            HOUR);
    consumer.start();
    assertThat(bothInGate.await(10, TimeUnit.SECONDS)).as("both claimers claimed").isTrue();

    // Committed after both claims read the queue, announced while they are still out.
    jobs.enqueue(OutgoingMessage.text("late"));
    consumer.wake();
    openGate.countDown();

    assertThat(handled.await(30, TimeUnit.SECONDS))
        .as("handled long before the hour-long poll")
        .isTrue();
  }

  /** The first claim of each lane reads the store, then waits at the gate. */
  private QueueStore heldAfterClaim(QueueStore real) {
    return (QueueStore)
        Proxy.newProxyInstance(
            QueueStore.class.getClassLoader(),
            new Class<?>[] {QueueStore.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("claim") && gated.getAndDecrement() > 0) {
                bothInGate.countDown();
                openGate.await();
              }
              return result;
            });
  }
}
