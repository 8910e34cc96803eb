package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure markers}: the group of marker commands; alone it is a usage error. */
@Command(
    name = "markers",
    description = {
      "Read and change lifecycle markers.",
      "A marker is at most one state per tenant and resource, such as ARCHIVED or SOFT_DELETED."
    },
    subcommands = {
      MarkersTransitionCommand.class,
      MarkersGetCommand.class,
      MarkersClearCommand.class,
      MarkersSaveCommand.class,
      MarkersListCommand.class
    })
final class MarkersCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "choose a markers command: transition, get, clear, save or list");
  }
}
