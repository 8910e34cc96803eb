package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure dlq}: the group of dead-letter commands; alone it is a usage error. */
@Command(
    name = "dlq",
    description = {
      "List, show, replay and purge dead letters.",
      "A dead letter is a message out of attempts or failed with a non-retryable error;"
          + " it stays until replayed or purged (or retention deletes it)."
    },
    subcommands = {
      DlqListCommand.class,
      DlqShowCommand.class,
      DlqReplayCommand.class,
      DlqPurgeCommand.class
    })
final class DlqCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "choose a dlq command: list, show, replay or purge");
  }
}
