package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tenure locks}: the group of named-lock commands; alone it is a usage error. */
@Command(
    name = "locks",
    description = "Read the named locks: who holds each, its fencing token, when it expires.",
    subcommands = {LocksListCommand.class})
final class LocksCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "choose a locks command: list");
  }
}
