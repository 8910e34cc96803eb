package io.tenure.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The end of the quiet period by progress: {@link Settling#await}'s rule, one step per sleep. */
class SettlingTest {
  private final AtomicLong unfinished = new AtomicLong();
  private final AtomicLong handled = new AtomicLong();

  @Test
  void drained_queues_end_the_wait_at_once() throws InterruptedException {
    int steps = Settling.await(unfinished::get, handled::get, () -> {}, 12);
    assertThat(steps).isZero();
  }

  @Test
  void a_step_that_handles_nothing_ends_the_wait_and_leaves_the_rest_to_the_checker()
      throws InterruptedException {
    unfinished.set(3); // stuck: nothing is ever handled again
    int steps = Settling.await(unfinished::get, handled::get, () -> {}, 12);
    assertThat(steps).isEqualTo(1);
  }

  @Test
  void a_backlog_still_draining_is_waited_for_until_it_is_gone() throws InterruptedException {
    unfinished.set(10);
    int steps =
        Settling.await(
            unfinished::get,
            handled::get,
            () -> {
              unfinished.addAndGet(-4);
              handled.addAndGet(4);
              unfinished.set(Math.max(0, unfinished.get()));
            },
            12);
    assertThat(steps).isEqualTo(3);
    assertThat(unfinished.get()).isZero();
  }

  @Test
  void progress_that_never_drains_stops_at_the_bound() throws InterruptedException {
    unfinished.set(1_000);
    int steps = Settling.await(unfinished::get, handled::get, handled::incrementAndGet, 12);
    assertThat(steps).isEqualTo(12);
  }
}
