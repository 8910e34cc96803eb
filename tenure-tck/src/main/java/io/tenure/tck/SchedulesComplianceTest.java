package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.PausedSlots;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.spi.ScheduleStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10, the declaration and read rules of {@link ScheduleStore} (S1 to S15 with {@link
 * ScheduleFireComplianceTest}): declarations by name that are idempotent, also by eight nodes at
 * once, every part of a definition round-tripping, reads that change nothing, and the due list.
 */
public abstract class SchedulesComplianceTest extends ScheduleKit {
  // ---- declare

  @Test
  void a_new_schedule_is_created_with_its_next_slot_running_at_version_one() {
    Instant next = now().plus(MINUTE);

    assertThat(schedules.declare(definition(every("hourly"), next)))
        .isEqualTo(Schedules.Declared.CREATED);

    ScheduleInfo info = stored("hourly");
    assertThat(info.nextFireAt()).isEqualTo(next);
    assertThat(info.paused()).isFalse();
    assertThat(info.version()).isEqualTo(1);
    assertThat(info.fired()).isZero();
    assertThat(info.skipped()).isZero();
    assertThat(info.lastFireAt()).isNull();
    assertThat(info.lastMessageId()).isNull();
    assertThat(info.maxAttempts()).isEqualTo(5);
  }

  @Test
  void declaring_the_same_definition_again_changes_nothing() {
    Instant next = now().plus(MINUTE);
    schedules.declare(definition(every("hourly"), next));

    assertThat(schedules.declare(definition(every("hourly"), next.plus(MINUTE))))
        .isEqualTo(Schedules.Declared.UNCHANGED);

    assertThat(stored("hourly").nextFireAt()).as("its next slot kept").isEqualTo(next);
    assertThat(stored("hourly").version()).isEqualTo(1);
  }

  @Test
  void a_changed_definition_replaces_the_old_from_its_next_slot_and_keeps_the_rest() {
    Instant next = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), next));
    ScheduleInfo before = stored("hourly");
    schedules.fire(fence, firing(before, List.of(next), 2, now().plus(MINUTE)));
    schedules.setPaused("hourly", true, null);
    Schedule changed =
        Schedule.cron("hourly", "0 * * * *")
            .zone("Europe/Berlin")
            .enqueue(QUEUE, OutgoingMessage.text("changed"));
    Instant changedNext = now().plus(Duration.ofHours(1));

    assertThat(schedules.declare(definition(changed, changedNext)))
        .isEqualTo(Schedules.Declared.UPDATED);

    ScheduleInfo after = stored("hourly");
    assertThat(after.schedule()).isEqualTo(changed);
    assertThat(after.nextFireAt()).isEqualTo(changedNext);
    assertThat(after.version()).isEqualTo(4);
    assertThat(after.paused()).as("pause kept").isTrue();
    assertThat(after.fired()).isEqualTo(1);
    assertThat(after.skipped()).isEqualTo(2);
    assertThat(after.lastSlotAt()).isEqualTo(next);
  }

  @Test
  void eight_nodes_declare_one_new_schedule_and_one_creates_it() {
    Instant next = now().plus(MINUTE);
    List<Callable<Schedules.Declared>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      calls.add(() -> schedules.declare(definition(every("hourly"), next)));
    }

    List<Schedules.Declared> results = Race.run(calls);

    assertThat(results).containsOnlyOnce(Schedules.Declared.CREATED);
    assertThat(results)
        .filteredOn(r -> r != Schedules.Declared.CREATED)
        .allMatch(r -> r == Schedules.Declared.UNCHANGED);
    assertThat(schedules.list(100)).hasSize(1);
  }

  /**
   * A new release rolled out to every node at once: each declares the changed definition; one
   * replaces it, the rest find it unchanged, none fails. (On MariaDB the declare's insert of a
   * present name share-locks its row, so two nodes going on to the update can deadlock; the store's
   * retries on contention must absorb that, never pass it to the caller.)
   */
  @Test
  void eight_nodes_declare_a_changed_definition_and_one_replaces_it_in_every_release() {
    Instant next = now().plus(MINUTE);
    schedules.declare(definition(every("hourly"), next));
    for (int release = 1; release <= 8; release++) {
      Schedule changed =
          Schedule.every("hourly", MINUTE.plusSeconds(release))
              .enqueue(QUEUE, OutgoingMessage.text("release " + release));
      List<Callable<Schedules.Declared>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(() -> schedules.declare(definition(changed, next)));
      }

      List<Schedules.Declared> results = Race.run(calls);

      assertThat(results).as("release %d", release).containsOnlyOnce(Schedules.Declared.UPDATED);
      assertThat(results)
          .filteredOn(r -> r != Schedules.Declared.UPDATED)
          .allMatch(r -> r == Schedules.Declared.UNCHANGED);
      assertThat(stored("hourly").schedule()).isEqualTo(changed);
      assertThat(stored("hourly").version()).isEqualTo(1L + release);
    }
  }

  @Test
  void every_part_of_a_definition_round_trips() {
    Instant next = now().plus(MINUTE);
    OutgoingMessage message =
        new OutgoingMessage(
            new byte[] {0, 1, (byte) 0xff, 'x'},
            "application/x-report",
            Map.of("tenant", "acme", "kind", "nightly ☾"),
            "customer-7",
            -3,
            Duration.ZERO,
            null);
    List<Schedule> all =
        List.of(
            Schedule.cron("unix", "30 2 * * 1-5")
                .zone("America/New_York")
                .enqueue(QUEUE, message)
                .missedSlots(MissedSlots.catchUp(25))
                .missedAfter(Duration.ofSeconds(90))
                .whilePaused(PausedSlots.KEEP)
                .jitter(Duration.ofMillis(1500)),
            Schedule.quartz("quartz", "0/15 * * * * ?")
                .enqueue(QUEUE, OutgoingMessage.text("q"))
                .missedSlots(MissedSlots.skip()),
            Schedule.every("interval", Duration.ofMillis(2500))
                .startingAt(Instant.parse("2026-03-01T00:00:00.000001Z"))
                .enqueue("other", OutgoingMessage.text("i").priority(9)));

    for (Schedule schedule : all) {
      schedules.declare(definition(schedule, next));
    }

    for (Schedule schedule : all) {
      ScheduleInfo info = stored(schedule.name());
      assertThat(info.schedule()).as(schedule.name()).isEqualTo(schedule);
      assertThat(info.schedule().message().payload()).isEqualTo(schedule.message().payload());
      assertThat(info.schedule().message().headers()).isEqualTo(schedule.message().headers());
      assertThat(info.nextFireAt()).isEqualTo(next);
      assertThat(schedules.declare(definition(info.schedule(), next.plus(MINUTE))))
          .as("what was read back declares as unchanged")
          .isEqualTo(Schedules.Declared.UNCHANGED);
    }
  }

  // ---- reads

  @Test
  void lists_and_reads_change_nothing() {
    Instant next = now().plus(MINUTE);
    schedules.declare(definition(every("b"), next));
    schedules.declare(definition(every("a"), next));

    assertThat(schedules.list(100)).extracting(ScheduleInfo::name).containsExactly("a", "b");
    assertThat(schedules.list(1)).extracting(ScheduleInfo::name).containsExactly("a");
    assertThat(schedules.read("none")).isEmpty();
    assertThat(stored("a").version()).isEqualTo(1);
    for (int bad : new int[] {0, -1, 10_001}) {
      assertThatThrownBy(() -> schedules.list(bad)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> schedules.due(bad)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> schedules.read(" a")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void due_lists_running_schedules_whose_next_slot_has_come_oldest_first() {
    Instant now = now();
    schedules.declare(definition(every("later"), now.plus(Duration.ofHours(1))));
    schedules.declare(definition(every("recent"), now.minus(MINUTE)));
    schedules.declare(definition(every("oldest"), now.minus(Duration.ofHours(1))));
    schedules.declare(definition(every("paused"), now.minus(Duration.ofHours(2))));
    schedules.setPaused("paused", true, null);

    assertThat(schedules.due(100))
        .extracting(ScheduleInfo::name)
        .containsExactly("oldest", "recent");
    assertThat(schedules.due(1)).extracting(ScheduleInfo::name).containsExactly("oldest");
    assertThat(schedules.due(100)).allMatch(ScheduleInfo::due);
    assertThat(schedules.nextDue()).contains(now.minus(Duration.ofHours(1)));
    schedules.setPaused("oldest", true, null);
    schedules.setPaused("recent", true, null);
    assertThat(schedules.nextDue()).contains(now.plus(Duration.ofHours(1)));
  }
}
