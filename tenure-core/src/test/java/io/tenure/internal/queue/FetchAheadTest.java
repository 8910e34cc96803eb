package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.spi.QueueStore;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Fetch-ahead sizing (SPEC §6.5): a pure function of the ticker and the handled count. */
class FetchAheadTest {
  private static final long MS = 1_000_000L;

  /** One step of a run: how far the ticker moved and how many messages were handled meanwhile. */
  record Tick(long nanos, int handled) {}

  @Provide
  Arbitrary<List<Tick>> runs() {
    Arbitrary<Tick> tick =
        Combinators.combine(
                Arbitraries.longs().between(0, 2_000 * MS),
                Arbitraries.integers().between(0, 5_000))
            .as(Tick::new);
    return tick.list().ofMaxSize(40);
  }

  @Property
  void the_fetch_ahead_stays_between_its_floor_and_the_ceiling(
      @ForAll("runs") List<Tick> run,
      @ForAll @IntRange(min = 1, max = 1000) int concurrency,
      @ForAll @IntRange(min = 1, max = 64) int batchSize) {
    FetchAhead sized = FetchAhead.initial(false, concurrency, batchSize);
    int floor = Math.max(FetchAhead.MIN_FETCH_AHEAD, 2 * concurrency * batchSize);
    assertThat(sized.floor()).isEqualTo(floor);
    for (FetchAhead step : replay(sized, run)) {
      assertThat(step.capacity()).isBetween(floor, Math.max(floor, FetchAhead.MAX_FETCH_AHEAD));
    }
  }

  @Property
  void an_exclusive_queue_holds_one_message_at_a_time(
      @ForAll("runs") List<Tick> run,
      @ForAll @IntRange(min = 0, max = 5) int unhandled,
      @ForAll @IntRange(min = 0, max = 5) int outstanding) {
    for (FetchAhead step : replay(FetchAhead.initial(true, 1, 1), run)) {
      assertThat(step.capacity()).isEqualTo(1);
      assertThat(step.resolveBatch()).isEqualTo(1);
      assertThat(step.claimSize(unhandled, outstanding)).isEqualTo(outstanding == 0 ? 1 : 0);
    }
  }

  @Property
  void the_rate_is_measured_at_most_once_per_sample_interval(
      @ForAll("runs") List<Tick> run, @ForAll @LongRange(min = 0, max = 49 * MS) long soon) {
    FetchAhead last = replay(FetchAhead.initial(false, 4, 1), run).getLast();
    if (last.last() == null) {
      return;
    }
    assertThat(last.next(last.last().at() + soon, last.last().finished() + 1_000_000))
        .isSameAs(last);
  }

  @Property
  void the_rate_rises_at_once_and_falls_by_at_most_half_per_sample(@ForAll("runs") List<Tick> run) {
    FetchAhead before = FetchAhead.initial(false, 4, 1);
    for (FetchAhead after : replay(before, run)) {
      if (after != before && before.last() != null) {
        double measured =
            (after.last().finished() - before.last().finished())
                * 1e9
                / (after.last().at() - before.last().at());
        assertThat(after.rate()).isEqualTo(Math.max(measured, before.rate() / 2));
      }
      before = after;
    }
  }

  @Test
  void a_measured_rate_sizes_the_fetch_ahead_for_a_quarter_second() {
    FetchAhead sized = FetchAhead.initial(false, 4, 1).next(0, 0);
    assertThat(sized.next(100 * MS, 40).capacity()).as("400 a second").isEqualTo(100);
    assertThat(sized.next(100 * MS, 2_000).capacity())
        .as("20,000 a second: capped")
        .isEqualTo(2048);
    assertThat(sized.next(100 * MS, 1).capacity()).as("10 a second: floor").isEqualTo(32);
    assertThat(sized.next(100 * MS, 40).next(200 * MS, 40).capacity())
        .as("an idle sample halves the rate")
        .isEqualTo(50);
  }

  @Property
  void a_claim_fits_the_room_takes_at_most_half_and_is_not_smaller_than_a_quarter(
      @ForAll @IntRange(min = 32, max = 4000) int capacity,
      @ForAll @IntRange(min = 0, max = 9000) int unhandled,
      @ForAll @IntRange(min = 0, max = 9000) int outstandingOverUnhandled) {
    int outstanding = unhandled + outstandingOverUnhandled;
    FetchAhead sized = new FetchAhead(32, false, null, 0, capacity);
    int want = sized.claimSize(unhandled, outstanding);
    int room = Math.min(capacity - unhandled, 2 * capacity - outstanding);
    if (room < capacity / 4) {
      assertThat(want).isZero();
    } else {
      assertThat(want)
          .isEqualTo(Math.min(Math.min(room, capacity / 2), QueueStore.MAX_BATCH))
          .isPositive();
    }
  }

  @Property
  void a_claim_is_due_exactly_when_handling_takes_the_buffer_past_a_claims_worth(
      @ForAll @IntRange(min = 32, max = 1024) int capacity,
      @ForAll @IntRange(min = 0, max = 2048) int before,
      @ForAll @IntRange(min = 1, max = 64) int handled) {
    FetchAhead sized = new FetchAhead(32, false, null, 0, capacity);
    int due = capacity - capacity / 4;
    assertThat(sized.claimDueAfter(before, handled))
        .isEqualTo(before > due && before - handled <= due);
  }

  @Property
  void a_resolve_batch_is_a_quarter_of_the_fetch_ahead_at_most_500(
      @ForAll @IntRange(min = 32, max = 100_000) int capacity) {
    assertThat(new FetchAhead(32, false, null, 0, capacity).resolveBatch())
        .isEqualTo(Math.min(500, capacity / 4));
  }

  private static List<FetchAhead> replay(FetchAhead start, List<Tick> run) {
    List<FetchAhead> steps = new java.util.ArrayList<>(List.of(start));
    long now = 0;
    long finished = 0;
    FetchAhead sized = start;
    for (Tick tick : run) {
      now += tick.nanos();
      finished += tick.handled();
      sized = sized.next(now, finished);
      steps.add(sized);
    }
    return steps;
  }
}
