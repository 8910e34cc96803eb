package io.tenure.tck;

import io.tenure.OutgoingMessage;
import io.tenure.QueueMessage;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/**
 * The schedule kit's shared fixture and helpers (SPEC §10): a fresh store per test with a leader
 * fence, definitions, firings and the messages they enqueued. The area classes are {@link
 * SchedulesComplianceTest} (declarations and reads) and {@link ScheduleFireComplianceTest} (fires,
 * pause, trigger, delete); a provider runs each with a wiring-only subclass.
 */
public abstract class ScheduleKit extends FixtureSupport {
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
}
