package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A real node built with {@link TenureTestKit#node()} on the in-memory store: it consumes and leads
 * on the test clock, fires a schedule's slot once the test moves the clock past it, and the kit
 * leaves the firing to it.
 */
@TenureTest
class NodeOnTestClockTest {
  @Test
  void a_node_on_the_test_clock_fires_the_slot_the_test_advances_to_and_consumes_its_message(
      Tenure tenure, TestClock clock, TenureTestKit kit) throws InterruptedException {
    Queue reports = tenure.queue("reports", QueuePolicy.defaults());
    tenure
        .schedules()
        .declare(
            Schedule.every("hourly", Duration.ofHours(1))
                .enqueue(reports, OutgoingMessage.text("hourly report")));
    List<String> handled = new CopyOnWriteArrayList<>();

    try (TenureNode node =
        kit.node().name("n1").consumer(reports, 1, d -> handled.add(d.text())).build()) {
      node.start();
      await("n1 leads", node::isLeader);
      assertThatThrownBy(kit::fireDueSchedules)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("node n1 at epoch 1 holds the leader lease");

      clock.advance(Duration.ofHours(1));
      await("the slot's message is handled", () -> !handled.isEmpty());
    }

    assertThat(handled).containsExactly("hourly report");
    kit.assertScheduledNext("hourly", TestClock.DEFAULT_START.plus(Duration.ofHours(2)));
  }

  /** The node's threads act on their own: wait for what they do, with a bound. */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}
