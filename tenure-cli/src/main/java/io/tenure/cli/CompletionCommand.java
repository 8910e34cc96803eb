package io.tenure.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tenure completion}: prints a bash completion script for every command and option. */
@Command(
    name = "completion",
    description = {
      "Print a bash completion script.",
      "Load it with: source <(tenure completion)   (zsh: run bashcompinit first)"
    })
final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().print(AutoComplete.bash("tenure", spec.root().commandLine()));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
