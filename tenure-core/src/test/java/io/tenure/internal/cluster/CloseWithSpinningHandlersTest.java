package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.6, shutdown never waits without bound: handlers that spin past the drain deadline without
 * ever blocking hold every carrier thread of the virtual-thread scheduler, so nothing the node's
 * close ran on a virtual thread would ever run. Close must still return.
 */
class CloseWithSpinningHandlersTest {
  private static final Duration DRAIN = Duration.ofMillis(200);

  /** Generous: the bound is the drain deadline plus about 11 s; the old code never returned. */
  private static final Duration HANG = Duration.ofSeconds(60);

  private volatile boolean spin = true;

  @AfterEach
  void stopSpinning() {
    spin = false;
  }

  @Test
  void close_returns_within_its_bound_while_spinning_handlers_hold_every_carrier_thread()
      throws Exception {
    int carriers =
        Integer.getInteger(
            "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    InMemoryStore store = InMemoryStore.create();
    Queue queue = Queue.on(store.queues(), "spinning", QueuePolicy.defaults());
    for (int i = 0; i < carriers; i++) {
      queue.enqueue(OutgoingMessage.text("spin " + i));
    }
    CountDownLatch spinning = new CountDownLatch(carriers);
    TenureNode node =
        TenureNode.builder(store)
            .name("spinner")
            .drainDeadline(DRAIN)
            .consumer(
                queue,
                carriers,
                d -> {
                  spinning.countDown();
                  while (spin) {
                    Thread.onSpinWait(); // never blocks, so never yields its carrier
                  }
                })
            .build();
    node.start();
    assertThat(spinning.await(30, TimeUnit.SECONDS)).as("%d handlers spinning", carriers).isTrue();

    long start = System.nanoTime();
    assertTimeoutPreemptively(
        HANG, node::close, () -> "close hung with " + carriers + " spinning handlers");
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).as("close took").isLessThan(Duration.ofSeconds(30));
    // Abandoned, not released: their leases lapse and the reclaim sweep takes them back.
    assertThat(queue.stats().inflight()).isEqualTo(carriers);
  }
}
