package io.tenure.cli;

import io.tenure.Schedules;
import picocli.CommandLine.Command;

/** {@code tenure schedules pause NAME}. */
@Command(
    name = "pause",
    description = {
      "Pause a schedule, durably and cluster-wide: no slot fires until it is resumed.",
      "Its slots that fall meanwhile are dropped or kept for the resume, as the schedule says."
    })
final class SchedulesPauseCommand extends ScheduleAction {
  @Override
  String act(Schedules schedules) {
    return schedules.pause(name) ? "paused" : "was paused already";
  }
}
