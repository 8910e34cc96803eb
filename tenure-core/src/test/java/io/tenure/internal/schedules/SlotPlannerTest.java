package io.tenure.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.CronSyntax;
import io.tenure.MissedSlots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which due slots fire: on-time slots always (up to a catch-up's max), missed ones as the policy
 * says, always the most recent due slots, with bounded work however long the schedule was down.
 */
class SlotPlannerTest {
  private static final Instant JAN_1 = Instant.parse("2026-01-01T00:00:00Z");

  /** Cron schedules whose slots are quick to find, several across DST changes. */
  private static final List<Slots> CRONS =
      List.of(
          Slots.cron(CronSyntax.QUARTZ, "0/5 * * * * ?", "UTC"),
          Slots.cron(CronSyntax.QUARTZ, "0/15 * * * * ?", "Europe/Berlin"),
          Slots.cron(CronSyntax.UNIX, "0 * * * *", "Europe/Berlin"),
          Slots.cron(CronSyntax.UNIX, "30 2 * * *", "Europe/Berlin"),
          Slots.cron(CronSyntax.UNIX, "15,45 2,3 * * *", "America/New_York"),
          Slots.cron(CronSyntax.UNIX, "*/10 * * * *", "Australia/Lord_Howe"));

  /** Instants near the 2026 changes of Berlin, New York and Lord Howe Island. */
  private static final List<Instant> CHANGES =
      List.of(
          Instant.parse("2026-03-29T01:00:00Z"),
          Instant.parse("2026-10-25T01:00:00Z"),
          Instant.parse("2026-03-08T07:00:00Z"),
          Instant.parse("2026-11-01T06:00:00Z"),
          Instant.parse("2026-04-04T15:00:00Z"),
          Instant.parse("2026-10-03T15:30:00Z"));

  /**
   * A schedule at {@code now}, with what the definitions say of it: {@code due} are the slots from
   * {@code nextFire} to {@code now}, {@code following} the first slot after now.
   */
  record Case(
      Slots slots,
      Instant nextFire,
      Instant now,
      MissedSlots policy,
      Duration missedAfter,
      List<Instant> due,
      Instant following) {
    List<Instant> onTime() {
      return due.stream()
          .filter(s -> !Duration.between(s, now).minus(missedAfter).isPositive())
          .toList();
    }

    List<Instant> missed() {
      return due.stream().filter(s -> !onTime().contains(s)).toList();
    }

    SlotPlan plan() {
      return SlotPlanner.plan(slots, nextFire, now, policy, missedAfter);
    }

    /** The definitions, read literally. */
    List<Instant> expectedFire() {
      return switch (policy) {
        case MissedSlots.Skip skip -> onTime();
        case MissedSlots.Latest latest ->
            !onTime().isEmpty() || missed().isEmpty() ? onTime() : List.of(missed().getLast());
        case MissedSlots.CatchUp(int max) -> due.subList(Math.max(0, due.size() - max), due.size());
      };
    }
  }

  @Provide
  Arbitrary<Slots> slots() {
    Arbitrary<Slots> intervals =
        Combinators.combine(
                Arbitraries.longs().between(1, 2 * 86_400_000L).map(Duration::ofMillis),
                Arbitraries.longs().between(0, 365 * 86_400_000L).map(JAN_1::plusMillis))
            .as(Slots::every);
    return Arbitraries.frequencyOf(Tuple.of(6, intervals), Tuple.of(4, Arbitraries.of(CRONS)));
  }

  @Provide
  Arbitrary<MissedSlots> policies() {
    return Arbitraries.oneOf(
        Arbitraries.just(MissedSlots.skip()),
        Arbitraries.just(MissedSlots.latest()),
        Arbitraries.integers().between(1, 45).map(MissedSlots::catchUp));
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Instant> bases =
        Arbitraries.oneOf(
            Arbitraries.longs().between(0, 365 * 86_400_000L).map(JAN_1::plusMillis),
            Combinators.combine(
                    Arbitraries.of(CHANGES), Arbitraries.longs().between(-86_400_000L, 3_600_000L))
                .as(Instant::plusMillis));
    return Combinators.combine(
            slots(),
            bases,
            Arbitraries.integers().between(0, 40),
            Arbitraries.doubles().between(0, 1),
            policies(),
            Arbitraries.integers().between(0, 3),
            Arbitraries.doubles().between(0, 1.5))
        .as(SlotPlannerTest::build);
  }

  private static Case build(
      Slots slots,
      Instant base,
      int dueCount,
      double within,
      MissedSlots policy,
      int graceKind,
      double graceFraction) {
    Instant nextFire = slots.nextAfter(base);
    List<Instant> chain = new ArrayList<>(List.of(nextFire));
    while (chain.size() <= dueCount) {
      chain.add(slots.nextAfter(chain.getLast()));
    }
    Instant now =
        dueCount == 0
            ? nextFire.minusNanos(1 + (long) (within * 86_400e9))
            : between(chain.get(dueCount - 1), chain.get(dueCount), within);
    List<Instant> due = chain.subList(0, dueCount);
    Duration missedAfter =
        switch (graceKind) {
          case 0 -> Duration.ZERO;
          case 1 ->
              Duration.ofNanos((long) (Duration.between(nextFire, now).toNanos() * graceFraction))
                  .abs();
          case 2 ->
              due.isEmpty()
                  ? Duration.ofMinutes(1)
                  : Duration.between(due.get((int) (graceFraction / 1.5 * (dueCount - 1))), now);
          default -> Duration.ofDays(2);
        };
    return new Case(
        slots, nextFire, now, policy, missedAfter, List.copyOf(due), chain.get(dueCount));
  }

  /** An instant from {@code from} (included) towards {@code to} (excluded). */
  private static Instant between(Instant from, Instant to, double fraction) {
    long nanos = Duration.between(from, to).toNanos();
    return from.plusNanos(Math.min(nanos - 1, (long) (nanos * fraction)));
  }

  @Property(tries = 500)
  void every_fired_slot_is_a_due_slot(@ForAll("cases") Case c) {
    assertThat(c.due()).containsAll(c.plan().fire());
  }

  @Property(tries = 500)
  void fire_is_ascending_and_within_the_policys_limit(@ForAll("cases") Case c) {
    List<Instant> fire = c.plan().fire();

    assertThat(fire).isSorted().doesNotHaveDuplicates();
    int limit =
        switch (c.policy()) {
          case MissedSlots.Skip skip -> c.onTime().size();
          case MissedSlots.Latest latest -> Math.max(1, c.onTime().size());
          case MissedSlots.CatchUp(int max) -> max;
        };
    assertThat(fire).hasSizeLessThanOrEqualTo(limit);
  }

  @Property(tries = 500)
  void fired_and_skipped_add_up_to_the_due_slots(@ForAll("cases") Case c) {
    SlotPlan plan = c.plan();

    assertThat(plan.skippedAtLeast()).isFalse();
    assertThat(plan.fire().size() + plan.skipped()).isEqualTo(c.due().size());
  }

  @Property(tries = 500)
  void the_fired_slots_are_the_most_recent_due_slots(@ForAll("cases") Case c) {
    List<Instant> fire = c.plan().fire();

    assertThat(fire).isEqualTo(c.due().subList(c.due().size() - fire.size(), c.due().size()));
  }

  @Property(tries = 500)
  void the_next_fire_is_the_first_slot_after_now(@ForAll("cases") Case c) {
    SlotPlan plan = c.plan();

    if (!c.due().isEmpty()) {
      assertThat(plan.nextFire()).isEqualTo(c.following()).isAfter(c.now());
      assertThat(c.slots().latestAtOrBefore(plan.nextFire().minusNanos(1)))
          .contains(c.due().getLast());
    }
  }

  @Property(tries = 500)
  void on_time_slots_always_fire_whatever_the_policy_up_to_a_catch_up_max(@ForAll("cases") Case c) {
    List<Instant> onTime = c.onTime();
    int most = c.policy() instanceof MissedSlots.CatchUp(int max) ? max : Integer.MAX_VALUE;

    assertThat(c.plan().fire())
        .containsAll(onTime.subList(Math.max(0, onTime.size() - most), onTime.size()));
  }

  @Property(tries = 500)
  void skip_fires_only_on_time_slots(@ForAll("cases") Case c) {
    Case skipping =
        new Case(
            c.slots(),
            c.nextFire(),
            c.now(),
            MissedSlots.skip(),
            c.missedAfter(),
            c.due(),
            c.following());

    assertThat(skipping.plan().fire()).isEqualTo(skipping.onTime());
  }

  @Property(tries = 500)
  void latest_fires_at_most_one_missed_slot_and_none_when_an_on_time_slot_fires(
      @ForAll("cases") Case c) {
    Case latest =
        new Case(
            c.slots(),
            c.nextFire(),
            c.now(),
            MissedSlots.latest(),
            c.missedAfter(),
            c.due(),
            c.following());
    List<Instant> fire = latest.plan().fire();
    List<Instant> firedMissed = fire.stream().filter(latest.missed()::contains).toList();

    assertThat(firedMissed).hasSizeLessThanOrEqualTo(1);
    if (!latest.onTime().isEmpty()) {
      assertThat(firedMissed).isEmpty();
    } else if (!latest.missed().isEmpty()) {
      assertThat(fire).containsExactly(latest.missed().getLast());
    }
  }

  @Property(tries = 500)
  void catch_up_never_fires_more_than_its_max_and_no_fewer_than_are_due(
      @ForAll("cases") Case c, @ForAll("catchUps") MissedSlots.CatchUp catchUp) {
    Case catchingUp =
        new Case(
            c.slots(), c.nextFire(), c.now(), catchUp, c.missedAfter(), c.due(), c.following());

    assertThat(catchingUp.plan().fire()).hasSize(Math.min(catchUp.max(), c.due().size()));
  }

  @Provide
  Arbitrary<MissedSlots.CatchUp> catchUps() {
    return Arbitraries.integers().between(1, 45).map(MissedSlots.CatchUp::new);
  }

  @Property(tries = 500)
  void nothing_due_is_an_empty_plan_with_the_next_fire_unchanged(@ForAll("cases") Case c) {
    if (c.due().isEmpty()) {
      assertThat(c.plan()).isEqualTo(new SlotPlan(List.of(), 0, false, c.nextFire()));
    }
  }

  @Property(tries = 500)
  void the_plan_is_what_the_definitions_say(@ForAll("cases") Case c) {
    SlotPlan plan = c.plan();
    String due =
        c.due().isEmpty()
            ? "nothing due"
            : (c.onTime().isEmpty() ? "" : "on time ") + (c.missed().isEmpty() ? "" : "missed");
    Statistics.label("due slots").collect(due.strip());
    Statistics.label("slots").collect(c.slots() instanceof CronSlots ? "cron" : "interval");
    Statistics.label("due slots")
        .coverage(
            coverage -> {
              coverage.check("nothing due").percentage(p -> p > 5);
              coverage.check("on time").percentage(p -> p > 5);
              coverage.check("missed").percentage(p -> p > 5);
              coverage.check("on time missed").percentage(p -> p > 5);
            });

    assertThat(plan)
        .isEqualTo(
            new SlotPlan(
                c.expectedFire(),
                c.due().size() - c.expectedFire().size(),
                false,
                c.due().isEmpty() ? c.nextFire() : c.following()));
  }

  @Test
  void a_slot_exactly_missed_after_old_is_on_time_and_one_older_is_missed() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);
    Instant now = JAN_1.plus(Duration.ofMinutes(10));

    SlotPlan plan = SlotPlanner.plan(slots, JAN_1, now, MissedSlots.skip(), Duration.ofMinutes(5));

    assertThat(plan.fire()).hasSize(6).startsWith(JAN_1.plus(Duration.ofMinutes(5))).endsWith(now);
    assertThat(plan.skipped()).isEqualTo(5);
  }

  @Test
  void with_no_grace_only_a_slot_at_now_is_on_time() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);

    SlotPlan atASlot =
        SlotPlanner.plan(slots, JAN_1, JAN_1.plusSeconds(120), MissedSlots.skip(), Duration.ZERO);
    SlotPlan between =
        SlotPlanner.plan(slots, JAN_1, JAN_1.plusSeconds(150), MissedSlots.skip(), Duration.ZERO);

    assertThat(atASlot)
        .isEqualTo(new SlotPlan(List.of(JAN_1.plusSeconds(120)), 2, false, JAN_1.plusSeconds(180)));
    assertThat(between).isEqualTo(new SlotPlan(List.of(), 3, false, JAN_1.plusSeconds(180)));
  }

  @Test
  void a_next_fire_between_slots_makes_the_slots_after_it_due() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);

    SlotPlan plan =
        SlotPlanner.plan(
            slots,
            JAN_1.plusSeconds(30),
            JAN_1.plusSeconds(185),
            MissedSlots.catchUp(10),
            Duration.ZERO);

    assertThat(plan.fire())
        .containsExactly(JAN_1.plusSeconds(60), JAN_1.plusSeconds(120), JAN_1.plusSeconds(180));
    assertThat(plan.nextFire()).isEqualTo(JAN_1.plusSeconds(240));
  }

  @Test
  void a_next_fire_between_slots_with_nothing_due_is_returned_unchanged() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);

    SlotPlan plan =
        SlotPlanner.plan(
            slots, JAN_1.plusSeconds(30), JAN_1.plusSeconds(59), MissedSlots.skip(), Duration.ZERO);

    assertThat(plan).isEqualTo(new SlotPlan(List.of(), 0, false, JAN_1.plusSeconds(30)));
  }

  @Test
  void an_interval_before_its_anchor_has_nothing_due() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);

    SlotPlan plan =
        SlotPlanner.plan(
            slots, JAN_1, JAN_1.minusSeconds(1), MissedSlots.catchUp(5), Duration.ofHours(1));

    assertThat(plan).isEqualTo(new SlotPlan(List.of(), 0, false, JAN_1));
  }

  @Test
  void a_fleet_down_across_spring_forward_catches_up_the_shifted_0230() {
    Slots slots = Slots.cron(CronSyntax.UNIX, "30 2 * * *", "Europe/Berlin");

    SlotPlan plan =
        SlotPlanner.plan(
            slots,
            Instant.parse("2026-03-28T01:30:00Z"),
            Instant.parse("2026-03-30T12:00:00Z"),
            MissedSlots.catchUp(10),
            Duration.ofMinutes(5));

    assertThat(plan)
        .isEqualTo(
            new SlotPlan(
                List.of(
                    Instant.parse("2026-03-28T01:30:00Z"),
                    Instant.parse("2026-03-29T01:30:00Z"),
                    Instant.parse("2026-03-30T00:30:00Z")),
                0,
                false,
                Instant.parse("2026-03-31T00:30:00Z")));
  }

  /** A 1-second interval down for 30 days: 2,592,001 due slots. */
  private static SlotPlan everySecondAfterAMonth(MissedSlots policy, Duration missedAfter) {
    Slots slots = Slots.every(Duration.ofSeconds(1), JAN_1);
    return SlotPlanner.plan(slots, JAN_1, JAN_1.plus(Duration.ofDays(30)), policy, missedAfter);
  }

  private static List<Instant> lastSecondsOfTheMonth(int count) {
    Instant now = JAN_1.plus(Duration.ofDays(30));
    return LongStream.range(0, count).mapToObj(i -> now.minusSeconds(count - 1 - i)).toList();
  }

  @Test
  @Timeout(
      value = 60,
      unit = TimeUnit.SECONDS) // a guard against an unbounded walk, not a benchmark
  void an_interval_down_for_a_month_counts_its_millions_of_skipped_slots_exactly() {
    Instant next = JAN_1.plus(Duration.ofDays(30)).plusSeconds(1);

    assertThat(everySecondAfterAMonth(MissedSlots.skip(), Duration.ofMinutes(1)))
        .isEqualTo(new SlotPlan(lastSecondsOfTheMonth(61), 2_592_001 - 61, false, next));
    assertThat(everySecondAfterAMonth(MissedSlots.latest(), Duration.ofMinutes(1)))
        .isEqualTo(new SlotPlan(lastSecondsOfTheMonth(61), 2_592_001 - 61, false, next));
    assertThat(everySecondAfterAMonth(MissedSlots.catchUp(10_000), Duration.ofMinutes(1)))
        .isEqualTo(new SlotPlan(lastSecondsOfTheMonth(10_000), 2_582_001, false, next));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void latest_alone_fires_the_last_slot_of_a_month_down() {
    Slots slots = Slots.every(Duration.ofSeconds(1), JAN_1);
    Instant now = JAN_1.plus(Duration.ofDays(30)).plusMillis(500);

    SlotPlan plan = SlotPlanner.plan(slots, JAN_1, now, MissedSlots.latest(), Duration.ZERO);

    assertThat(plan)
        .isEqualTo(
            new SlotPlan(
                lastSecondsOfTheMonth(1),
                2_592_000,
                false,
                JAN_1.plus(Duration.ofDays(30)).plusSeconds(1)));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void on_time_slots_beyond_ten_thousand_are_skipped_and_counted() {
    SlotPlan plan = everySecondAfterAMonth(MissedSlots.skip(), Duration.ofDays(1));

    assertThat(plan.fire()).isEqualTo(lastSecondsOfTheMonth(SlotPlanner.MAX_FIRED));
    assertThat(plan.skipped()).isEqualTo(2_592_001 - SlotPlanner.MAX_FIRED);
    assertThat(plan.skippedAtLeast()).isFalse();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void a_cron_down_for_a_month_counts_its_skipped_slots_up_to_the_bound() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "* * * * * ?", "UTC");
    Instant now = JAN_1.plus(Duration.ofDays(30));

    SlotPlan plan = SlotPlanner.plan(slots, JAN_1, now, MissedSlots.catchUp(10), Duration.ZERO);

    assertThat(plan)
        .isEqualTo(
            new SlotPlan(
                lastSecondsOfTheMonth(10), SlotPlanner.MAX_LOOKUPS - 10, true, now.plusSeconds(1)));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void a_cron_that_fires_ten_thousand_slots_still_reports_that_it_skipped_some() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "* * * * * ?", "UTC");
    Instant now = JAN_1.plus(Duration.ofDays(30));

    SlotPlan plan = SlotPlanner.plan(slots, JAN_1, now, MissedSlots.skip(), Duration.ofDays(1));

    assertThat(plan.fire()).isEqualTo(lastSecondsOfTheMonth(SlotPlanner.MAX_FIRED));
    assertThat(plan.skipped()).isEqualTo(1);
    assertThat(plan.skippedAtLeast()).isTrue();
  }

  @Test
  void a_cron_that_skipped_exactly_the_bound_counts_it_exactly() {
    Slots slots = Slots.cron(CronSyntax.QUARTZ, "* * * * * ?", "UTC");
    int skipped = SlotPlanner.MAX_LOOKUPS - 1;
    Instant now = JAN_1.plusSeconds(skipped);

    SlotPlan plan = SlotPlanner.plan(slots, JAN_1, now, MissedSlots.latest(), Duration.ZERO);

    assertThat(plan).isEqualTo(new SlotPlan(List.of(now), skipped, false, now.plusSeconds(1)));
  }

  @Test
  void a_missing_or_bad_argument_is_refused_naming_it() {
    Slots slots = Slots.every(Duration.ofMinutes(1), JAN_1);
    MissedSlots skip = MissedSlots.skip();
    Duration grace = Duration.ofMinutes(1);

    assertThatThrownBy(() -> SlotPlanner.plan(null, JAN_1, JAN_1, skip, grace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slots must not be null");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, null, JAN_1, skip, grace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nextFire must not be null");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, JAN_1, null, skip, grace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("now must not be null");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, JAN_1, JAN_1, null, grace))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("policy must not be null");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, JAN_1, JAN_1, skip, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("missedAfter must not be null or negative, got null");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, JAN_1, JAN_1, skip, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("missedAfter must not be null or negative, got PT-1S");
    assertThatThrownBy(() -> SlotPlanner.plan(slots, JAN_1, JAN_1, skip, Duration.ofDays(366)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("missedAfter must be at most 365 days (PT8760H), got PT8784H (366 days)");
  }
}
