package io.tenure.internal.schedules;

import io.tenure.OutgoingMessage;
import io.tenure.ScheduleInfo;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleFiring;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.random.RandomGenerator;

/** The messages a schedule enqueues: one per slot, deduplicated by the slot, or a manual one. */
final class ScheduleMessages {
  private ScheduleMessages() {}

  /** A slot's message: the definition's, available after a random part of the jitter. */
  static NewMessage forSlot(ScheduleInfo info, Instant slot, RandomGenerator random) {
    return message(
        info,
        jitter(info.schedule().jitter(), random),
        ScheduleFiring.dedupeKey(info.name(), slot));
  }

  /** A manual trigger's message: its own dedupe key, so it never stands for a slot. */
  static NewMessage forTrigger(ScheduleInfo info) {
    return message(
        info, Duration.ZERO, "tenure-schedule:" + info.name() + ":manual:" + UUID.randomUUID());
  }

  private static NewMessage message(ScheduleInfo info, Duration delay, String dedupeKey) {
    OutgoingMessage m = Objects.requireNonNull(info.schedule().message());
    return new NewMessage(
        Objects.requireNonNull(info.schedule().queue()),
        m.key(),
        m.payload(),
        m.contentType(),
        m.headers(),
        m.priority(),
        info.maxAttempts(),
        delay,
        dedupeKey);
  }

  /** Uniform in [0, most], to the microsecond the stores keep. */
  static Duration jitter(Duration most, RandomGenerator random) {
    long micros = most.toNanos() / 1000;
    return micros <= 0 ? Duration.ZERO : Duration.ofNanos(random.nextLong(micros + 1) * 1000);
  }
}
