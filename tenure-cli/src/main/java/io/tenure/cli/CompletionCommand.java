package io.tenure.cli;

import java.util.LinkedHashSet;
import java.util.Set;
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
      "Load it with source <(./tenure completion), for example in ~/.bashrc with the full path;"
          + " it completes both tenure and ./tenure. In zsh, run bashcompinit first."
    })
final class CompletionCommand implements Callable<Integer> {
  /** How picocli's script registers its function: for the command name alone. */
  private static final String REGISTER = "complete -F _complete_tenure -o default tenure";

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String script = AutoComplete.bash("tenure", spec.root().commandLine());
    if (!script.contains(REGISTER)) {
      throw new IllegalStateException(
          "picocli's completion script no longer registers with '" + REGISTER + "'");
    }
    spec.commandLine()
        .getOut()
        .print(script.replace(REGISTER, REGISTER + " " + String.join(" ", otherNames())));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  /**
   * Bash looks completions up by the command word as typed: the repository's script is run as
   * {@code ./tenure}, or however {@code $TENURE_LAUNCHER} says it was called.
   */
  private Set<String> otherNames() {
    Set<String> names = new LinkedHashSet<>();
    names.add("./tenure");
    String launcher = TenureCommand.launcher(spec);
    if (!launcher.equals("tenure") && launcher.matches("[A-Za-z0-9_./-]+")) {
      names.add(launcher);
    }
    return names;
  }
}
