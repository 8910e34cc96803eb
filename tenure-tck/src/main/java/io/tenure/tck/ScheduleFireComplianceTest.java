package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleFiring.Fired;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10, the fire rules of {@link ScheduleStore} (S1 to S15 with {@link
 * SchedulesComplianceTest}): fires under the leader fence and the row's version that enqueue each
 * slot's message once and move the schedule in one transaction, pause, resume, trigger, delete, and
 * a closed store or a dropped table refused as such.
 */
public abstract class ScheduleFireComplianceTest extends ScheduleKit {
  // ---- fire

  @Test
  void a_fire_enqueues_each_slots_message_and_moves_the_schedule_in_one_transaction() {
    Instant first = now().minus(Duration.ofMinutes(3));
    schedules.declare(definition(every("hourly"), first));
    ScheduleInfo due = stored("hourly");
    List<Instant> slots = List.of(first.plus(MINUTE), first.plus(MINUTE.multipliedBy(2)));
    Instant next = first.plus(MINUTE.multipliedBy(4));
    Instant before = now();

    ScheduleFiring.Result result = schedules.fire(fence, firing(due, slots, 1, next));

    assertThat(result).isInstanceOf(Fired.class);
    List<Long> ids = ((Fired) result).messageIds();
    assertThat(ids).hasSize(2);
    List<QueueMessage> enqueued = messages();
    assertThat(enqueued).extracting(QueueMessage::id).containsExactlyElementsOf(ids);
    assertThat(enqueued)
        .allSatisfy(
            m -> {
              assertThat(m.status()).isEqualTo(MessageStatus.PENDING);
              assertThat(new String(m.payload(), java.nio.charset.StandardCharsets.UTF_8))
                  .isEqualTo("run hourly");
              assertThat(m.maxAttempts()).isEqualTo(5);
            });
    assertThat(enqueued.get(0).dedupeKey())
        .isEqualTo(ScheduleFiring.dedupeKey("hourly", slots.get(0)));
    ScheduleInfo after = stored("hourly");
    assertThat(after.nextFireAt()).isEqualTo(next);
    assertThat(after.lastSlotAt()).isEqualTo(slots.get(1));
    assertThat(after.lastMessageId()).isEqualTo(ids.get(1));
    assertThat(after.lastFireAt()).isBetween(before, now());
    assertThat(after.fired()).isEqualTo(2);
    assertThat(after.skipped()).isEqualTo(1);
    assertThat(after.version()).isEqualTo(due.version() + 1);
  }

  @Test
  void a_fire_of_no_slot_still_moves_the_schedule_and_counts_what_it_skipped() {
    Instant first = now().minus(Duration.ofHours(1));
    schedules.declare(definition(every("hourly"), first));

    schedules.fire(fence, firing(stored("hourly"), List.of(), 60, now().plus(MINUTE)));

    assertThat(messages()).isEmpty();
    assertThat(stored("hourly").skipped()).isEqualTo(60);
    assertThat(stored("hourly").lastFireAt()).isNull();
    assertThat(schedules.due(10)).isEmpty();
  }

  @Test
  void a_fire_from_a_stale_version_changes_nothing() {
    Instant first = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), first));
    ScheduleInfo planned = stored("hourly");
    schedules.setPaused("hourly", true, null);
    schedules.setPaused("hourly", false, null);
    ScheduleInfo before = stored("hourly");

    ScheduleFiring.Result result =
        schedules.fire(fence, firing(planned, List.of(first), 0, now().plus(MINUTE)));

    assertThat(result).isInstanceOf(ScheduleFiring.Lost.class);
    assertThat(messages()).isEmpty();
    assertThat(stored("hourly"))
        .usingRecursiveComparison()
        .ignoringFields("readAt")
        .isEqualTo(before);
    assertThat(
            schedules.fire(fence, new ScheduleFiring("gone", 1, List.of(), 0, now().plus(MINUTE))))
        .as("no such schedule")
        .isInstanceOf(ScheduleFiring.Lost.class);
  }

  @Test
  void a_fire_under_a_stale_fence_changes_nothing() {
    Instant first = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), first));
    ScheduleInfo due = stored("hourly");
    LeaderFence stale = new LeaderFence(fence.nodeId(), fence.epoch() - 1);
    LeaderFence stranger = new LeaderFence(UUID.randomUUID().toString(), fence.epoch());

    for (LeaderFence wrong : List.of(stale, stranger)) {
      assertThat(schedules.fire(wrong, firing(due, List.of(first), 0, now().plus(MINUTE))))
          .isInstanceOf(ScheduleFiring.Fenced.class);
    }

    assertThat(messages()).isEmpty();
    assertThat(stored("hourly").version()).isEqualTo(due.version());
    assertThat(stored("hourly").nextFireAt()).isEqualTo(first);
  }

  @Test
  void a_slot_fired_twice_enqueues_one_message() {
    Instant slot = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), slot));
    ScheduleInfo first = stored("hourly");
    Fired once = (Fired) schedules.fire(fence, firing(first, List.of(slot), 0, now().plus(MINUTE)));
    // The same slot again, planned from the row as it is now (as a successor that believed it due).
    ScheduleInfo moved = stored("hourly");

    Fired again =
        (Fired) schedules.fire(fence, firing(moved, List.of(slot), 0, now().plus(MINUTE)));

    assertThat(again.messageIds()).isEqualTo(once.messageIds());
    assertThat(messages()).hasSize(1);
  }

  @Test
  void eight_leaders_fire_one_version_and_exactly_one_enqueues() {
    Instant first = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), first));
    ScheduleInfo due = stored("hourly");
    ScheduleFiring plan =
        firing(due, List.of(first, first.plus(Duration.ofSeconds(30))), 0, now().plus(MINUTE));
    List<Callable<ScheduleFiring.Result>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      calls.add(() -> schedules.fire(fence, plan));
    }

    List<ScheduleFiring.Result> results = Race.run(calls);

    assertThat(results).filteredOn(r -> r instanceof Fired).hasSize(1);
    assertThat(results).filteredOn(r -> r instanceof ScheduleFiring.Lost).hasSize(7);
    assertThat(messages()).hasSize(2);
    assertThat(stored("hourly").fired()).isEqualTo(2);
    assertThat(stored("hourly").version()).isEqualTo(due.version() + 1);
  }

  // ---- pause, resume, trigger, delete

  @Test
  void pausing_stops_a_schedule_being_due_and_resuming_moves_its_next_slot() {
    Instant first = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), first));
    Instant before = now();

    assertThat(schedules.setPaused("hourly", true, null)).isTrue();
    assertThat(schedules.setPaused("hourly", true, null)).as("already paused").isFalse();

    ScheduleInfo paused = stored("hourly");
    assertThat(paused.paused()).isTrue();
    assertThat(paused.pausedAt()).isBetween(before, now());
    assertThat(paused.version()).isEqualTo(2);
    assertThat(schedules.due(10)).isEmpty();
    Instant resumedNext = now().plus(MINUTE);
    assertThat(schedules.setPaused("hourly", false, resumedNext)).isTrue();
    assertThat(schedules.setPaused("hourly", false, null)).as("already running").isFalse();
    ScheduleInfo resumed = stored("hourly");
    assertThat(resumed.paused()).isFalse();
    assertThat(resumed.pausedAt()).isNull();
    assertThat(resumed.nextFireAt()).isEqualTo(resumedNext);
    assertThat(resumed.version()).isEqualTo(3);
    schedules.setPaused("hourly", true, null);
    schedules.setPaused("hourly", false, null);
    assertThat(stored("hourly").nextFireAt())
        .as("resumed without a slot: kept")
        .isEqualTo(resumedNext);
    assertThat(schedules.setPaused("none", true, null)).isFalse();
  }

  @Test
  void a_trigger_enqueues_at_once_and_keeps_the_next_slot() {
    Instant next = now().plus(Duration.ofHours(1));
    schedules.declare(definition(every("hourly"), next));
    ScheduleInfo info = stored("hourly");
    NewMessage manual =
        new NewMessage(
            QUEUE,
            null,
            "manual".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "text/plain",
            Map.of(),
            0,
            5,
            Duration.ZERO,
            "tenure-schedule:hourly:manual:" + UUID.randomUUID());
    Instant before = now();

    long id = schedules.trigger("hourly", manual).orElseThrow();

    assertThat(messages()).extracting(QueueMessage::id).containsExactly(id);
    ScheduleInfo after = stored("hourly");
    assertThat(after.lastMessageId()).isEqualTo(id);
    assertThat(after.lastFireAt()).isBetween(before, now());
    assertThat(after.nextFireAt()).isEqualTo(next);
    assertThat(after.fired()).isEqualTo(info.fired());
    assertThat(schedules.trigger("none", manual)).isEmpty();
    assertThat(messages()).hasSize(1);
  }

  @Test
  void deleting_removes_the_schedule_and_keeps_its_messages() {
    Instant first = now().minus(MINUTE);
    schedules.declare(definition(every("hourly"), first));
    schedules.fire(fence, firing(stored("hourly"), List.of(first), 0, now().plus(MINUTE)));

    assertThat(schedules.delete("hourly")).isTrue();
    assertThat(schedules.delete("hourly")).isFalse();

    assertThat(schedules.read("hourly")).isEmpty();
    assertThat(messages()).hasSize(1);
    assertThat(schedules.declare(definition(every("hourly"), first)))
        .as("declared anew")
        .isEqualTo(Schedules.Declared.CREATED);
  }

  @Test
  void a_closed_store_refuses_schedule_calls_as_unavailable_and_a_dropped_table_as_missing() {
    Store closed = freshStore();
    ScheduleStore closedSchedules = closed.schedules();
    closed.close();
    ScheduleDefinition definition =
        definition(every("hourly"), Instant.parse("2030-01-01T00:00:00Z"));

    assertThatThrownBy(() -> closedSchedules.declare(definition))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedSchedules.list(10))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> closedSchedules.due(10)).isInstanceOf(StoreUnavailableException.class);

    TablePrefix prefix = freshPrefix();
    ScheduleStore dropped = fixture.open(prefix).schedules();
    fixture.dropTables(prefix);

    assertThatThrownBy(() -> dropped.declare(definition))
        .isInstanceOf(SchemaMissingException.class);
    assertThatThrownBy(() -> dropped.due(10)).isInstanceOf(SchemaMissingException.class);
  }
}
