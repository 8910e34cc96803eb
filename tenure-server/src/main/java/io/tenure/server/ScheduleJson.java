package io.tenure.server;

import io.tenure.MissedSlots;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A schedule as {@code GET /api/schedules} and {@code tenure schedules list --json} show it
 * (docs/ADMIN-API.md): one vocabulary for both.
 */
public final class ScheduleJson {
  private ScheduleJson() {}

  /**
   * @return the schedule's definition and where it stands
   */
  public static Map<String, @Nullable Object> of(ScheduleInfo info) {
    Schedule s = info.schedule();
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("name", s.name());
    fields.put("kind", s.kind().name());
    fields.put("when", when(s));
    fields.put("zone", s.kind() == Schedule.Kind.INTERVAL ? null : s.zone());
    fields.put("queue", s.queue());
    fields.put("paused", info.paused());
    fields.put("pausedAt", text(info.pausedAt()));
    fields.put("nextFireAt", info.nextFireAt().toString());
    fields.put("nextFireInMs", Duration.between(info.readAt(), info.nextFireAt()).toMillis());
    fields.put("lastFireAt", text(info.lastFireAt()));
    fields.put("lastSlotAt", text(info.lastSlotAt()));
    fields.put("lastMessageId", info.lastMessageId());
    fields.put("fired", info.fired());
    fields.put("skipped", info.skipped());
    fields.put("missedSlots", missed(s.missedSlots()));
    fields.put("missedAfterMs", s.missedAfter().toMillis());
    fields.put("whilePaused", s.whilePaused().name());
    fields.put("jitterMs", s.jitter().toMillis());
    return fields;
  }

  /**
   * @return the cron expression, or {@code every PT5M} (with {@code from INSTANT} when moved)
   */
  public static String when(Schedule s) {
    if (s.kind() != Schedule.Kind.INTERVAL) {
      return s.expression();
    }
    return "every "
        + s.interval()
        + (s.anchor().equals(Instant.EPOCH) ? "" : " from " + s.anchor());
  }

  /**
   * @return {@code latest}, {@code skip} or {@code catch up N}
   */
  public static String missed(MissedSlots policy) {
    return switch (policy) {
      case MissedSlots.CatchUp c -> "catch up " + c.max();
      case MissedSlots.Latest l -> "latest";
      case MissedSlots.Skip k -> "skip";
    };
  }

  private static @Nullable String text(@Nullable Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
