package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.internal.queue.CloseProcedure.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The consumer's start and close as a state machine (SPEC §6.6): each step in order, once, with the
 * deadline it is given; the ticker is moved by the steps themselves, never by sleeping.
 */
class CloseProcedureTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long SETTLE = CloseProcedure.SETTLE.toNanos();
  private final AtomicLong now = new AtomicLong(100 * SECOND);
  private final Recorder steps = new Recorder();
  private final CloseProcedure life = new CloseProcedure(steps, now::get);

  @Test
  void closing_takes_every_step_once_in_order_with_the_deadline_from_when_it_began() {
    life.start();
    assertThat(life.state()).isEqualTo(State.RUNNING);
    steps.handlersFinish = true;

    life.close(Duration.ofSeconds(2));

    long end = 102 * SECOND;
    assertThat(steps.calls)
        .containsExactly(
            "start",
            "stopClaimers until " + end,
            "stopDispatcher until " + (100 * SECOND + SETTLE),
            "releaseUnstarted",
            "awaitHandlers until " + end,
            "writeOutcomes until " + (100 * SECOND + SETTLE));
    assertThat(life.state()).isEqualTo(State.CLOSED);
  }

  @Test
  void handlers_past_the_deadline_are_abandoned_before_the_outcomes_are_written() {
    life.start();
    steps.handlersFinish = false;
    steps.advanceOnAwait = 3 * SECOND; // the handlers use up the deadline

    life.close(Duration.ofSeconds(3));

    assertThat(steps.calls)
        .containsSubsequence(
            "awaitHandlers until " + 103 * SECOND,
            "abandonHandlers after PT3S",
            "writeOutcomes until " + (103 * SECOND + SETTLE));
  }

  @Test
  void the_dispatcher_is_waited_for_until_the_deadline_when_it_is_later_than_its_settling() {
    life.start();
    steps.handlersFinish = true;

    life.close(Duration.ofSeconds(60));

    assertThat(steps.calls).contains("stopDispatcher until " + 160 * SECOND);
  }

  @Test
  void a_second_close_does_nothing() {
    life.start();
    steps.handlersFinish = true;
    life.close(Duration.ofSeconds(1));
    int calls = steps.calls.size();

    life.close(Duration.ofSeconds(1));

    assertThat(steps.calls).hasSize(calls);
    assertThat(life.state()).isEqualTo(State.CLOSED);
  }

  @Test
  void closing_a_consumer_never_started_stops_nothing_and_it_cannot_start_after() {
    life.close(Duration.ofSeconds(1));

    assertThat(steps.calls).isEmpty();
    assertThat(life.state()).isEqualTo(State.CLOSED);
    assertThatThrownBy(life::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CLOSED");
  }

  @Test
  void a_consumer_starts_once() {
    life.start();

    assertThatThrownBy(life::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RUNNING");
    assertThat(steps.calls).containsExactly("start");
  }

  @Test
  void the_longest_close_is_the_deadline_and_two_settlings_and_a_second() {
    assertThat(CloseProcedure.bound(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(13));
  }

  /** Records each step with its deadline; waiting for handlers may move the ticker. */
  private final class Recorder implements CloseProcedure.Steps {
    final List<String> calls = new ArrayList<>();
    boolean handlersFinish;
    long advanceOnAwait;

    @Override
    public void start() {
      calls.add("start");
    }

    @Override
    public void stopClaimers(long end) {
      calls.add("stopClaimers until " + end);
    }

    @Override
    public void stopDispatcher(long end) {
      calls.add("stopDispatcher until " + end);
    }

    @Override
    public void releaseUnstarted() {
      calls.add("releaseUnstarted");
    }

    @Override
    public boolean awaitHandlers(long end) {
      calls.add("awaitHandlers until " + end);
      now.addAndGet(advanceOnAwait);
      return handlersFinish;
    }

    @Override
    public void abandonHandlers(Duration deadline) {
      calls.add("abandonHandlers after " + deadline);
    }

    @Override
    public void writeOutcomes(long end) {
      calls.add("writeOutcomes until " + end);
    }
  }
}
