package io.tenure.internal.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.PausedSlots;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Schedules;
import io.tenure.inmemory.InMemoryDatabase;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.ScheduleFiring;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10 through the runtime: declarations, the leader's firer on a manual clock, missed slots,
 * pause and resume, triggers, and exactly one message per slot through a change of leader.
 */
class ScheduleRuntimeTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final ManualTime time = new ManualTime();
  private final InMemoryDatabase database = InMemoryDatabase.fresh();
  private final InMemoryStore store =
      InMemoryStore.builder().database(database).clock(time.databaseClock()).build();
  private final Queue reports =
      Queue.on(store.queues(), "reports", QueuePolicy.defaults().withMaxAttempts(4));
  private final Map<String, Queue> opened = Map.of("reports", reports);
  private final DefaultSchedules schedules =
      new DefaultSchedules(
          store.schedules(), store::now, name -> Optional.ofNullable(opened.get(name)));
  private final ScheduleFirer firer =
      new ScheduleFirer(store.schedules(), store::now, time.ticker(), new SplittableRandom(7));

  /** The leader for the rest of the test: its lease outlasts every test's clock. */
  private LeaderFence lead(String node) {
    return lead(node, Duration.ofDays(1));
  }

  private LeaderFence lead(String node, Duration ttl) {
    return new LeaderFence(node, store.leases().acquire(node, ttl).orElseThrow().epoch());
  }

  private List<QueueMessage> messages() {
    return store.queues().list(new MessageQuery("reports", null, null, null, null, 0, 1000));
  }

  private static Schedule everyMinute(String name) {
    return Schedule.every(name, MINUTE).enqueue("reports", OutgoingMessage.text(name));
  }

  /** Moves both clocks on and lets the firer run as the leader's thread would. */
  private void run(LeaderFence fence, Duration by, Duration step) {
    for (Duration done = Duration.ZERO; done.compareTo(by) < 0; done = done.plus(step)) {
      time.advance(step);
      firer.tick(fence);
    }
  }

  @Test
  void the_leader_fires_each_slot_once_as_it_comes() {
    LeaderFence fence = lead("n1");
    assertThat(schedules.declare(everyMinute("minutely"))).isEqualTo(Schedules.Declared.CREATED);

    run(fence, Duration.ofMinutes(5), Duration.ofMillis(250));

    List<QueueMessage> sent = messages();
    assertThat(sent).hasSize(5);
    assertThat(sent).extracting(QueueMessage::dedupeKey).doesNotHaveDuplicates();
    assertThat(sent).allSatisfy(m -> assertThat(m.maxAttempts()).isEqualTo(4));
    assertThat(schedules.find("minutely").orElseThrow().fired()).isEqualTo(5);
    assertThat(firer.stats().fired()).isEqualTo(5);
    assertThat(firer.stats().maxLag()).isLessThanOrEqualTo(Duration.ofMillis(250));
  }

  @Test
  void a_deposed_leaders_fire_changes_nothing_and_its_successor_fires_the_slot_once() {
    LeaderFence first = lead("n1", Duration.ofSeconds(30));
    schedules.declare(everyMinute("minutely"));
    time.advance(MINUTE);
    ScheduleFirer deposed =
        new ScheduleFirer(store.schedules(), store::now, time.ticker(), new SplittableRandom(1));
    // n1's lease lapses and n2 takes it: n1's next fire carries a stale fence.
    time.advance(Duration.ofSeconds(31));
    LeaderFence second = lead("n2");
    assertThat(second.epoch()).isGreaterThan(first.epoch());

    deposed.tick(first);
    assertThat(messages()).as("the deposed leader fired nothing").isEmpty();
    firer.tick(second);
    firer.lookNow();
    firer.tick(second);

    assertThat(messages()).hasSize(1);
    assertThat(deposed.stats().fired()).isZero();
  }

  @Test
  void slots_missed_while_no_leader_fired_follow_the_schedules_policy() {
    schedules.declare(
        everyMinute("latest").missedSlots(MissedSlots.latest()).missedAfter(Duration.ZERO));
    schedules.declare(
        everyMinute("all").missedSlots(MissedSlots.catchUp(100)).missedAfter(Duration.ZERO));
    schedules.declare(
        everyMinute("none").missedSlots(MissedSlots.skip()).missedAfter(Duration.ZERO));
    // Ten minutes without a leader, and a little more, so every slot is late.
    time.advance(Duration.ofMinutes(10).plusSeconds(5));

    firer.tick(lead("n1"));

    assertThat(schedules.find("latest").orElseThrow().fired()).isEqualTo(1);
    assertThat(schedules.find("latest").orElseThrow().skipped()).isEqualTo(9);
    assertThat(schedules.find("all").orElseThrow().fired()).isEqualTo(10);
    assertThat(schedules.find("none").orElseThrow().fired()).isZero();
    assertThat(schedules.find("none").orElseThrow().skipped()).isEqualTo(10);
    assertThat(messages()).hasSize(11);
  }

  @Test
  void a_paused_schedule_fires_nothing_and_resumes_dropping_or_keeping_its_slots() {
    LeaderFence fence = lead("n1");
    schedules.declare(everyMinute("drop"));
    schedules.declare(
        everyMinute("keep").whilePaused(PausedSlots.KEEP).missedSlots(MissedSlots.catchUp(10)));
    assertThat(schedules.pause("drop")).isTrue();
    assertThat(schedules.pause("keep")).isTrue();
    assertThat(schedules.pause("keep")).as("already paused").isFalse();

    run(fence, Duration.ofMinutes(3).plusSeconds(10), Duration.ofSeconds(1));
    assertThat(messages()).isEmpty();
    assertThat(schedules.resume("drop")).isTrue();
    assertThat(schedules.resume("keep")).isTrue();
    assertThat(schedules.resume("keep")).as("already running").isFalse();
    firer.lookNow();
    firer.tick(fence);

    assertThat(schedules.find("drop").orElseThrow().fired())
        .as("its paused slots dropped")
        .isZero();
    assertThat(schedules.find("keep").orElseThrow().fired())
        .as("its paused slots kept")
        .isEqualTo(3);
  }

  @Test
  void a_trigger_enqueues_now_outside_the_slots() {
    schedules.declare(everyMinute("minutely"));

    long id = schedules.trigger("minutely");

    assertThat(messages()).extracting(QueueMessage::id).containsExactly(id);
    assertThat(messages().get(0).dedupeKey()).startsWith("tenure-schedule:minutely:manual:");
    assertThat(schedules.find("minutely").orElseThrow().lastMessageId()).isEqualTo(id);
    assertThat(schedules.find("minutely").orElseThrow().fired()).isZero();
  }

  @Test
  void each_slots_message_waits_a_random_part_of_the_jitter() {
    LeaderFence fence = lead("n1");
    schedules.declare(everyMinute("spread").jitter(Duration.ofSeconds(30)));

    run(fence, Duration.ofMinutes(20), Duration.ofSeconds(1));

    List<QueueMessage> sent = messages();
    assertThat(sent).hasSize(20);
    assertThat(sent)
        .allSatisfy(
            m ->
                assertThat(Duration.between(m.createdAt(), m.availableAt()))
                    .isBetween(Duration.ZERO, Duration.ofSeconds(30)));
    assertThat(sent.stream().map(m -> Duration.between(m.createdAt(), m.availableAt())).distinct())
        .as("not all the same")
        .hasSizeGreaterThan(1);
  }

  @Test
  void bad_declarations_are_refused_naming_what_is_wrong_and_store_nothing() {
    assertThatThrownBy(
            () ->
                schedules.declare(
                    Schedule.every("x", MINUTE).enqueue("reprots", OutgoingMessage.text("x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown queue 'reprots'");
    assertThatThrownBy(() -> schedules.declare(Schedule.every("x", MINUTE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no message");
    assertThatThrownBy(() -> Schedule.cron("x", "61 * * * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'61 * * * *'");
    assertThatThrownBy(() -> Schedule.cron("x", "0 2 * * *").zone("Europe/Berlinn"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Europe/Berlinn");
    assertThatThrownBy(() -> Schedule.every("x", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Schedule.every("x", Duration.ofSeconds(-5)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> everyMinute("x").enqueue("reports", OutgoingMessage.text("x").dedupeKey("mine")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dedupe key");
    assertThatThrownBy(() -> schedules.pause("missing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no schedule named 'missing'");
    assertThatThrownBy(() -> schedules.trigger("missing"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(schedules.list()).isEmpty();
  }

  @Test
  void a_redeclared_definition_keeps_its_next_slot_and_a_changed_one_moves_it() {
    schedules.declare(everyMinute("minutely"));
    Instant first = schedules.find("minutely").orElseThrow().nextFireAt();
    time.advance(Duration.ofSeconds(30));

    assertThat(schedules.declare(everyMinute("minutely"))).isEqualTo(Schedules.Declared.UNCHANGED);
    assertThat(
            schedules.declare(
                Schedule.every("minutely", Duration.ofMinutes(5))
                    .enqueue("reports", OutgoingMessage.text("minutely"))))
        .isEqualTo(Schedules.Declared.UPDATED);

    Instant next = schedules.find("minutely").orElseThrow().nextFireAt();
    assertThat(next).isAfter(first);
    assertThat(next.getEpochSecond() % 300).as("on a five-minute boundary").isZero();
  }

  @Test
  void the_dedupe_key_names_the_schedule_and_the_slot() {
    assertThat(ScheduleFiring.dedupeKey("nightly", Instant.parse("2026-03-29T01:30:00.000001Z")))
        .isEqualTo("tenure-schedule:nightly@1774747800000001");
  }
}
