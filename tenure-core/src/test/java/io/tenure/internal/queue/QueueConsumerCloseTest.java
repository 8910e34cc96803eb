package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.QueueStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a consumer whose threads are caught mid-step (SPEC §6.6): what it claimed and never
 * started goes back at once, even when a claim is still in the store past the drain deadline. The
 * store's claims are held at a gate, so the interleaving is forced, not hoped for.
 */
class QueueConsumerCloseTest {
  private static final Duration LEASE =
      Duration.ofMinutes(5); // never lapses here: only a release frees a message
  private final InMemoryStore store = InMemoryStore.create();
  private final CountDownLatch stuck = new CountDownLatch(1);
  private volatile boolean gated;
  private final CountDownLatch inGate = new CountDownLatch(1);
  private final CountDownLatch openGate = new CountDownLatch(1);

  @AfterEach
  void unblock() {
    stuck.countDown();
    openGate.countDown();
  }

  @Test
  void a_claim_that_returns_after_close_is_released_not_left_in_flight() throws Exception {
    QueueStore gatedStore = gatedClaims(store.queues());
    Queue jobs = Queue.on(gatedStore, "late-claim", QueuePolicy.defaults().withLease(LEASE));
    CountDownLatch entered = new CountDownLatch(1);
    long first = jobs.enqueue(OutgoingMessage.text("first"));
    long second = jobs.enqueue(OutgoingMessage.text("second"));
    QueueConsumer consumer =
        new QueueConsumer(
            gatedStore,
            ConsumerSpec.single(
                jobs,
                1,
                d -> {
                  entered.countDown();
                  stuck.await(); // overruns the drain deadline
                }),
            () -> "node-1",
            () -> true);
    consumer.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    until(() -> jobs.stats().inflight() == 2);

    // A claimer enters the store and is held there; a third message arrives for it to take.
    gated = true;
    assertThat(inGate.await(10, TimeUnit.SECONDS)).isTrue();
    long third = jobs.enqueue(OutgoingMessage.text("third"));

    consumer.close(Duration.ofMillis(50)); // returns with the claim still held in the store

    // The one buffered behind the running handler went back before close returned, its attempt
    // given back. Read while the late claim is still held: once it goes on, it may take this
    // message again (it is pending, and the claim was sent before close released it).
    assertThat(jobs.message(second).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    assertThat(jobs.message(second).orElseThrow().attempts()).isZero();
    openGate.countDown();

    // The late claim is given back by the claimer that made it, without waiting for its lease:
    // the third message, and the second too if the late claim took it again. A claimer ends once
    // it has released what it took; wait for both to end, then read.
    until(
        () ->
            Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("tenure-claim-late-claim-")));
    assertThat(jobs.message(third).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    assertThat(jobs.message(third).orElseThrow().attempts()).isZero();
    assertThat(jobs.message(second).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    assertThat(jobs.message(second).orElseThrow().attempts()).isZero();
    // The overrunning handler keeps its claim: the reclaim sweep frees it when its lease lapses.
    assertThat(jobs.message(first).orElseThrow().status()).isEqualTo(MessageStatus.INFLIGHT);
  }

  /** The store, with every claim held at the gate once {@link #gated} is set. */
  private QueueStore gatedClaims(QueueStore real) {
    return (QueueStore)
        Proxy.newProxyInstance(
            QueueStore.class.getClassLoader(),
            new Class<?>[] {QueueStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("claim") && gated) {
                inGate.countDown();
                openGate.await();
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
