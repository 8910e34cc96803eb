package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure queue}: the group of queue commands; alone it is a usage error. */
@Command(
    name = "queue",
    description = "Read the durable queues' numbers; pause, resume and limit a queue.",
    subcommands = {
      QueueStatsCommand.class,
      QueuePauseCommand.Pause.class,
      QueuePauseCommand.Resume.class,
      QueueLimitsCommand.class
    })
final class QueueCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "choose a queue command: stats, pause, resume, limits");
  }
}
