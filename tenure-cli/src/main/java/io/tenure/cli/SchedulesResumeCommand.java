package io.tenure.cli;

import io.tenure.Schedules;
import picocli.CommandLine.Command;

/** {@code tenure schedules resume NAME}. */
@Command(
    name = "resume",
    description = {
      "Resume a paused schedule.",
      "With whilePaused DROP it fires from its next slot on; with KEEP the slots that fell while"
          + " it was paused are missed slots, fired as its missed-slot policy says."
    })
final class SchedulesResumeCommand extends ScheduleAction {
  @Override
  String act(Schedules schedules) {
    return schedules.resume(name) ? "resumed" : "was running already";
  }
}
