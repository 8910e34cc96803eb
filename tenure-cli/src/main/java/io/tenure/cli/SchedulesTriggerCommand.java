package io.tenure.cli;

import io.tenure.Schedules;
import picocli.CommandLine.Command;

/** {@code tenure schedules trigger NAME}. */
@Command(
    name = "trigger",
    description = {
      "Enqueue a schedule's message now, outside its slots; its next slot stays as it is.",
      "Prints the new message's id, which tenure dlq show takes."
    })
final class SchedulesTriggerCommand extends ScheduleAction {
  @Override
  String act(Schedules schedules) {
    return "enqueued message " + schedules.trigger(name);
  }
}
