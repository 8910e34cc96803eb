package io.tenure.internal.schedules;

import io.tenure.CronSyntax;
import io.tenure.Schedule;

/** When a declared schedule's slots fall, from its definition. */
public final class ScheduleSlots {
  private ScheduleSlots() {}

  /**
   * @return the slots of {@code schedule}
   */
  public static Slots of(Schedule schedule) {
    return switch (schedule.kind()) {
      case CRON -> Slots.cron(CronSyntax.UNIX, schedule.expression(), schedule.zone());
      case QUARTZ -> Slots.cron(CronSyntax.QUARTZ, schedule.expression(), schedule.zone());
      case INTERVAL -> Slots.every(schedule.interval(), schedule.anchor());
    };
  }
}
