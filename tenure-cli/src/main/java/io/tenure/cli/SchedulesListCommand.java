package io.tenure.cli;

import io.tenure.ScheduleInfo;
import io.tenure.server.ScheduleJson;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code tenure schedules list}: every schedule, when it fires next and what it last did. */
@Command(
    name = "list",
    description = {
      "List the schedules: when each fires next and last, how many slots it fired and skipped.",
      "Times are the database clock's. A schedule fires only while a node of the cluster leads."
    })
final class SchedulesListCommand extends StoreCommand {
  private static final int MAX = 10_000;

  @Override
  void checkArguments() {
    // No arguments: every schedule is listed.
  }

  @Override
  int run(Store store, Output output) {
    List<ScheduleInfo> schedules = store.schedules().list(MAX);
    if (output.json()) {
      output.object(Map.of("schedules", schedules.stream().map(ScheduleJson::of).toList()));
    } else if (schedules.isEmpty()) {
      output.line("no schedule is declared.");
    } else {
      output.table(
          List.of("SCHEDULE", "WHEN", "QUEUE", "STATE", "NEXT IN", "LAST FIRE", "FIRED", "SKIPPED"),
          schedules.stream().map(SchedulesListCommand::row).toList());
    }
    return ExitCodes.OK;
  }

  private static List<String> row(ScheduleInfo info) {
    Duration next = Duration.between(info.readAt(), info.nextFireAt());
    return List.of(
        info.name(),
        ScheduleJson.when(info.schedule())
            + (info.schedule().kind() == io.tenure.Schedule.Kind.INTERVAL
                ? ""
                : " " + info.schedule().zone()),
        info.schedule().queue(),
        info.paused() ? "PAUSED" : "RUNNING",
        next.isNegative() ? "due" : QueueStatsCommand.age(next),
        info.lastFireAt() == null
            ? "-"
            : QueueStatsCommand.age(Duration.between(info.lastFireAt(), info.readAt())) + " ago",
        String.valueOf(info.fired()),
        String.valueOf(info.skipped()));
  }
}
