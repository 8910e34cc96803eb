package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Tenure;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

/**
 * Schedules on the test clock: slots fire through the leader's own firer when the kit is asked, on
 * time when the clock is advanced with the leader, as missed slots when it jumped.
 */
class ScheduleKitTest {
  private static final Instant MONDAY = Instant.parse("2026-03-02T08:00:00Z");

  @RegisterExtension
  static final TenureExtension TENURE = TenureExtension.inMemory().startingAt(MONDAY);

  private static Queue reports(Tenure tenure) {
    return tenure.queue("reports", QueuePolicy.defaults());
  }

  @Test
  void a_slot_fires_once_its_time_has_come_and_the_next_slot_is_the_one_after(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue reports = reports(tenure);
    tenure
        .schedules()
        .declare(
            Schedule.every("hourly", Duration.ofHours(1))
                .enqueue(reports, OutgoingMessage.text("hourly report")));
    kit.assertScheduledNext("hourly", MONDAY.plus(Duration.ofHours(1)));

    assertThat(kit.fireDueSchedules()).as("nothing due yet").isZero();
    clock.advance(Duration.ofHours(1));
    assertThat(kit.fireDueSchedules()).isEqualTo(1);
    assertThat(kit.fireDueSchedules()).as("a slot fires once").isZero();

    kit.assertScheduledNext("hourly", MONDAY.plus(Duration.ofHours(2)));
    QueueMessage sent = kit.assertEnqueued(reports, 1, Messages.text("hourly report")).getFirst();
    assertThat(sent.dedupeKey())
        .isEqualTo("tenure-schedule:hourly@" + micros(MONDAY.plusSeconds(3600)));
  }

  @Test
  void a_cron_schedule_fires_at_its_wall_clock_time_in_its_zone(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue reports = reports(tenure);
    tenure
        .schedules()
        .declare(
            Schedule.cron("nightly", "30 2 * * *")
                .zone("Europe/Berlin")
                .enqueue(reports, OutgoingMessage.text("nightly")));
    Instant tonight = Instant.parse("2026-03-03T01:30:00Z"); // 02:30 in Berlin, winter time
    kit.assertScheduledNext("nightly", tonight);

    clock.set(tonight);
    kit.fireDueSchedules();

    kit.assertScheduledNext("nightly", tonight.plus(Duration.ofDays(1)));
    kit.assertEnqueued(reports, 1, Messages.text("nightly"));
  }

  @Test
  void advancing_with_the_leader_fires_each_slot_on_time_where_a_jump_fires_the_latest_only(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    Queue reports = reports(tenure);
    tenure
        .schedules()
        .declare(
            Schedule.every("steady", Duration.ofMinutes(1))
                .enqueue(reports, OutgoingMessage.text("steady")));
    tenure
        .schedules()
        .declare(
            Schedule.every("jumped", Duration.ofMinutes(1))
                .enqueue(reports, OutgoingMessage.text("jumped"))
                .missedSlots(MissedSlots.latest())
                .missedAfter(Duration.ZERO)); // every slot but the newest is late once due

    tenure.schedules().pause("jumped");
    assertThat(kit.advanceFiringSchedules(Duration.ofMinutes(10))).isEqualTo(10);
    assertThat(clock.now()).isEqualTo(MONDAY.plus(Duration.ofMinutes(10)));
    kit.assertEnqueued(reports, 10, Messages.text("steady"));

    tenure.schedules().pause("steady");
    tenure.schedules().resume("jumped"); // its next slot: the one after now
    clock.advance(Duration.ofMinutes(10)); // no leader looked: 9 of the 10 slots are missed
    assertThat(kit.fireDueSchedules()).isEqualTo(1);
    assertThat(tenure.schedules().find("jumped").orElseThrow().skipped()).isEqualTo(9);
  }

  @Test
  void a_wrong_next_slot_fails_saying_where_the_schedule_stands(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    tenure
        .schedules()
        .declare(
            Schedule.every("hourly", Duration.ofHours(1))
                .enqueue(reports(tenure), OutgoingMessage.text("report")));
    clock.advance(Duration.ofHours(1));

    assertThatThrownBy(() -> kit.assertScheduledNext("hourly", MONDAY.plus(Duration.ofHours(2))))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining(
            "Expected schedule 'hourly' to fire next at 2026-03-02T10:00:00Z, but it fires next at"
                + " 2026-03-02T09:00:00Z (due now: kit.fireDueSchedules() fires it)")
        .hasMessageContaining("every PT1H")
        .hasMessageContaining("running, fired 0, skipped 0; now 2026-03-02T09:00:00Z");
    assertThatThrownBy(() -> kit.assertScheduledNext("hourl", MONDAY))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("there is no schedule of that name. The store has:")
        .hasMessageContaining("'hourly' next at 2026-03-02T09:00:00Z");
  }

  @Test
  void firing_is_refused_while_another_node_holds_the_leader_lease(
      Tenure tenure, TestClock clock, TenureTestKit kit) {
    tenure
        .schedules()
        .declare(
            Schedule.every("hourly", Duration.ofHours(1))
                .enqueue(reports(tenure), OutgoingMessage.text("report")));
    clock.advance(Duration.ofHours(1));
    tenure.store().leases().acquire("node-a", Duration.ofMinutes(5)).orElseThrow();

    assertThatThrownBy(kit::fireDueSchedules)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node node-a at epoch 1 holds the leader lease")
        .hasMessageContaining("nothing fired");
    kit.assertEnqueued(reports(tenure), 0, Messages.any());

    clock.advance(Duration.ofMinutes(5)); // its lease lapses
    assertThat(kit.fireDueSchedules()).isEqualTo(1);
    assertThat(tenure.store().leases().read().live())
        .as("the kit releases the lease it fired under")
        .isFalse();
  }

  @Test
  void bad_input_is_refused_by_name(TenureTestKit kit) {
    assertThatThrownBy(() -> kit.advanceFiringSchedules(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zero or more, got PT-1S");
    assertThatThrownBy(() -> kit.advanceFiringSchedules(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> kit.assertScheduledNext("hourly", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected instant must not be null");
    assertThatThrownBy(() -> kit.assertScheduledNext(null, MONDAY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static long micros(Instant at) {
    return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
  }
}
