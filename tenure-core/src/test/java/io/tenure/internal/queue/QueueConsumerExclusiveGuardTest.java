package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentUri;
import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.9: a resolve refused by the exclusive queue's guard is not the end of the consumer. The
 * agent's row can be gone for a moment (deleted by hand, restored by its runner at the epoch it
 * holds) while the agent runs on: its consumer must go on claiming, under the same guard, once the
 * row is back. The fault harness found an exclusive queue stranded this way (seed 218459): the
 * consumer had stopped claiming for good on the first refused done. Claims carry the guard, so a
 * consumer whose agent really moved on takes nothing until its agent stops it.
 */
class QueueConsumerExclusiveGuardTest {
  private static final AgentUri AGENT = AgentUri.parse("queue://orders");
  private static final String NODE = "node-1";

  private final InMemoryStore store = InMemoryStore.create();
  private final Queue orders =
      Queue.on(store.queues(), "orders", QueuePolicy.defaults().withLease(Duration.ofMinutes(5)));
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
  void a_done_refused_while_the_agents_row_was_gone_does_not_stop_the_consumer() throws Exception {
    String leader = "leader";
    LeaderFence fence =
        new LeaderFence(
            leader, store.leases().acquire(leader, Duration.ofMinutes(5)).orElseThrow().epoch());
    assertThat(store.agents().place(AGENT, NODE, fence)).isEqualTo(AssignmentWrite.APPLIED);
    long epoch = store.agents().claim(AGENT, NODE).orElseThrow();
    CountDownLatch entered = new CountDownLatch(1);
    List<Long> handled = new CopyOnWriteArrayList<>();
    consumer =
        QueueConsumer.exclusive(
            store.queues(),
            ConsumerSpec.single(
                orders,
                1,
                delivery -> {
                  if (handled.isEmpty()) {
                    entered.countDown();
                    release.await();
                  }
                  handled.add(delivery.message().id());
                }),
            new AgentGuard(AGENT, NODE, epoch));
    long first = orders.enqueue(OutgoingMessage.text("first"));
    consumer.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    // The row goes while the first message runs: its done is refused and the message goes back.
    assertThat(store.agents().removeOwned(AGENT, NODE)).isTrue();
    release.countDown();
    until(() -> orders.message(first).orElseThrow().status() == MessageStatus.PENDING);

    // The runner restores its row at the epoch it holds: the agent, and its guard, run on.
    assertThat(store.agents().claimIfAbsent(AGENT, NODE)).hasValue(epoch);
    long second = orders.enqueue(OutgoingMessage.text("second"));

    until(() -> handled.contains(second));
    assertThat(handled).containsExactly(first, first, second);
    assertThat(orders.message(first)).isEmpty();
  }

  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }
}
