package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure messages}: the group of commands on single messages; alone it is a usage error. */
@Command(
    name = "messages",
    description = "Act on single queue messages, whatever their status.",
    subcommands = {
      MessagesListCommand.class,
      DlqShowCommand.class,
      MessagesCancelCommand.class,
      MessagesDeleteCommand.class,
      MessagesRunNowCommand.class,
      MessagesRetryCommand.class
    })
final class MessagesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "choose a messages command: list, show, cancel, delete, run-now, retry");
  }
}
