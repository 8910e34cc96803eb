package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.PausedSlots;
import io.tenure.QueueMessage;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleFiring.Fired;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10, the rules S1 to S15 of {@link ScheduleStore}: declarations by name that are idempotent,
 * fires under the leader fence and the row's version that enqueue each slot's message once and move
 * the schedule in one transaction, pause, resume, trigger and delete.
 */
public abstract class SchedulesComplianceTest extends FixtureSupport {
  static final String QUEUE = "reports";
  static final Duration MINUTE = Duration.ofMinutes(1);

  Store store;
  ScheduleStore schedules;
  LeaderFence fence;

  @BeforeEach
  void openStore() {
    store = freshStore();
    schedules = store.schedules();
    String leader = UUID.randomUUID().toString();
    fence = new LeaderFence(leader, store.leases().acquire(leader, MINUTE).orElseThrow().epoch());
  }

  static Schedule every(String name) {
    return Schedule.every(name, MINUTE).enqueue(QUEUE, OutgoingMessage.text("run " + name));
  }

  /** A definition whose next slot is {@code at}, five attempts per message. */
  static ScheduleDefinition definition(Schedule schedule, Instant at) {
    return new ScheduleDefinition(schedule, 5, at);
  }

  /** The database's now, to the microsecond every provider keeps. */
  Instant now() {
    return store.now().truncatedTo(ChronoUnit.MICROS);
  }

  ScheduleInfo stored(String name) {
    return schedules.read(name).orElseThrow();
  }

  /** A slot's message as the runtime builds it: the definition's, with the slot's dedupe key. */
  static NewMessage slotMessage(ScheduleInfo info, Instant slot) {
    OutgoingMessage m = info.schedule().message();
    return new NewMessage(
        info.schedule().queue(),
        m.key(),
        m.payload(),
        m.contentType(),
        m.headers(),
        m.priority(),
        info.maxAttempts(),
        Duration.ZERO,
        ScheduleFiring.dedupeKey(info.name(), slot));
  }

  ScheduleFiring firing(ScheduleInfo info, List<Instant> slots, long skipped, Instant next) {
    return new ScheduleFiring(
        info.name(),
        info.version(),
        slots.stream().map(at -> new ScheduleFiring.Slot(at, slotMessage(info, at))).toList(),
        skipped,
        next);
  }

  List<QueueMessage> messages() {
    return store.queues().list(new MessageQuery(QUEUE, null, null, null, null, 0, 1000));
  }

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
