package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure schedules}: the group of schedule commands; alone it is a usage error. */
@Command(
    name = "schedules",
    description = "Read and control the durable schedules: list, pause, resume, trigger, delete.",
    subcommands = {
      SchedulesListCommand.class,
      SchedulesPauseCommand.class,
      SchedulesResumeCommand.class,
      SchedulesTriggerCommand.class,
      SchedulesDeleteCommand.class
    })
final class SchedulesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "choose a schedules command: list, pause, resume, trigger or delete");
  }
}
