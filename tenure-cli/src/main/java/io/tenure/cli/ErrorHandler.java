package io.tenure.cli;

import io.tenure.TenureException;
import java.io.PrintWriter;
import java.util.List;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line on stderr, starting with {@code tenure: }, and its exit code.
 * Usage errors end with where to read the usage; a stack trace is printed only when verbose.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final BooleanSupplier verbose;

  /**
   * @param verbose tells, when a failure happens, whether the user asked for details
   */
  ErrorHandler(BooleanSupplier verbose) {
    this.verbose = verbose;
  }

  @Override
  public int handleParseException(ParameterException failure, String[] args) {
    CommandLine command = failure.getCommandLine();
    report(command.getErr(), failure, describe(failure) + suggestion(failure) + seeHelp(command));
    return ExitCodes.USAGE;
  }

  /** Picocli calls an unknown command an "unmatched argument at index 0"; say what it is. */
  private static String describe(ParameterException failure) {
    CommandSpec spec = failure.getCommandLine().getCommandSpec();
    if (failure instanceof UnmatchedArgumentException unmatched
        && !unmatched.getUnmatched().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")
        && !spec.subcommands().isEmpty()
        && spec.positionalParameters().isEmpty()) {
      return "unknown command '" + unmatched.getUnmatched().get(0) + "'";
    }
    return failure.getMessage();
  }

  @Override
  public int handleExecutionException(
      Exception failure, CommandLine command, ParseResult parseResult) {
    int code = ExitCodes.of(failure);
    report(command.getErr(), failure, message(failure, code, command));
    return code;
  }

  private String message(Exception failure, int code, CommandLine command) {
    if (code == ExitCodes.USAGE) {
      return failure.getMessage() + seeHelp(command);
    }
    if ((failure instanceof TenureException || failure instanceof CommandFailure)
        && failure.getMessage() != null) {
      return failure.getMessage();
    }
    // Not a failure Tenure classified: name its type, since its message alone may say little.
    String hint = verbose.getAsBoolean() ? "" : " (rerun with --verbose for the stack trace)";
    return "unexpected error: " + failure + hint;
  }

  private void report(PrintWriter err, Exception failure, String message) {
    if (verbose.getAsBoolean()) {
      failure.printStackTrace(err);
    }
    err.println("tenure: " + oneLine(message));
    err.flush();
  }

  private static String suggestion(ParameterException failure) {
    if (failure instanceof UnmatchedArgumentException unmatched) {
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        return " (did you mean '" + String.join("' or '", suggestions) + "'?)";
      }
    }
    return "";
  }

  private static String seeHelp(CommandLine command) {
    return "; see '" + command.getCommandSpec().qualifiedName() + " --help'";
  }

  /** Driver messages sometimes span lines; scripts and logs expect one line per error. */
  private static String oneLine(String message) {
    return message.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
