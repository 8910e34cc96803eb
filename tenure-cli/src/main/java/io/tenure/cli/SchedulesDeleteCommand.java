package io.tenure.cli;

import io.tenure.Schedules;
import picocli.CommandLine.Command;

/** {@code tenure schedules delete NAME}. */
@Command(
    name = "delete",
    description = {
      "Delete a schedule. The messages it enqueued stay in their queue.",
      "A node that declares it again at its next start creates it anew."
    })
final class SchedulesDeleteCommand extends ScheduleAction {
  @Override
  String act(Schedules schedules) {
    return schedules.delete(name) ? "deleted" : "was already gone";
  }
}
