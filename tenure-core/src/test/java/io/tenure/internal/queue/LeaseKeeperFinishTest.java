package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.ClaimRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A finished handler's outcome is handed to the resolvers before closing can see its message gone
 * (SPEC §6.6). Closing stops the resolvers once no message is held; an outcome queued after that is
 * never written, and the message runs a second time when its lease lapses. The hand-off is held at
 * a latch, so the interleaving is forced.
 */
class LeaseKeeperFinishTest {
  private final InMemoryStore store = InMemoryStore.create();
  private final AtomicLong now = new AtomicLong();
  private final Ticker ticker = now::get;

  @Test
  void closing_does_not_see_a_message_gone_until_its_outcome_is_queued() throws Exception {
    LeaseKeeper leases = new LeaseKeeper(store.queues(), "jobs", Duration.ofMinutes(5), ticker);
    QueueMessage message = claimOne();
    leases.track(List.of(message));
    CountDownLatch inHandOff = new CountDownLatch(1);
    CountDownLatch letGo = new CountDownLatch(1);

    CompletableFuture<Boolean> finishing =
        CompletableFuture.supplyAsync(
            () ->
                leases.finish(
                    message.id(),
                    leaseSetAt -> {
                      inHandOff.countDown();
                      await(letGo);
                    }));
    assertThat(inHandOff.await(10, TimeUnit.SECONDS)).isTrue();

    // The ticker stands still: a waiter that is not woken would wait for ever, so bound it by
    // the ticker's reading (already past) and read the answer once.
    assertThat(leases.awaitNoneHeld(now.get()))
        .as("closing must not see the message gone while its outcome is being queued")
        .isFalse();
    letGo.countDown();
    assertThat(finishing.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(leases.awaitNoneHeld(now.get())).isTrue();
  }

  @Test
  void a_message_no_longer_tracked_hands_nothing_on() {
    LeaseKeeper leases = new LeaseKeeper(store.queues(), "jobs", Duration.ofMinutes(5), ticker);
    QueueMessage message = claimOne();
    leases.track(List.of(message));
    assertThat(leases.abandonAll()).isEqualTo(1);

    AtomicLong handed = new AtomicLong(-1);
    assertThat(leases.finish(message.id(), handed::set)).isFalse();
    assertThat(handed).hasValue(-1);
  }

  @Test
  void the_outcome_gets_when_the_lease_was_last_set() {
    LeaseKeeper leases = new LeaseKeeper(store.queues(), "jobs", Duration.ofMinutes(5), ticker);
    QueueMessage message = claimOne();
    now.set(1_234);
    leases.track(List.of(message));
    now.set(9_999);

    AtomicLong handed = new AtomicLong(-1);
    assertThat(leases.finish(message.id(), handed::set)).isTrue();
    assertThat(handed).hasValue(1_234);
    assertThat(leases.awaitNoneHeld(now.get())).isTrue();
  }

  private QueueMessage claimOne() {
    Queue jobs = Queue.on(store.queues(), "jobs", QueuePolicy.defaults());
    jobs.enqueue(OutgoingMessage.text("one"));
    return store
        .queues()
        .claim(ClaimRequest.of("jobs", "node-1", 1, Duration.ofMinutes(5)))
        .getFirst();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
