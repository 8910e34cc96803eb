package io.tenure.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code tenure} launcher: operator commands over a Tenure store. Run {@code tenure --help} for
 * the commands and the exit codes scripts can rely on.
 */
@Command(
    name = "tenure",
    mixinStandardHelpOptions = true,
    // Inherited so that every subcommand has --help, which each usage error points to.
    scope = ScopeType.INHERIT,
    version = "tenure 0.1.0-SNAPSHOT",
    description = "Coordination for JVM fleets that share a database: operator commands.",
    subcommands = {
      DemoCommand.class,
      ChaosCommand.class,
      MigrateCommand.class,
      NodeCommand.class,
      StatusCommand.class,
      MarkersCommand.class,
      AgentsCommand.class,
      QueueCommand.class,
      DlqCommand.class,
      CompletionCommand.class,
      HelpCommand.class
    },
    footer = {
      "",
      "Environment:",
      "  TENURE_STORE    store URL used when --store is not given",
      "  TENURE_DEBUG=1  same as --verbose"
    })
public final class TenureCommand implements Callable<Integer> {
  /** The variable that turns on {@code --verbose} for every run. */
  static final String DEBUG_VARIABLE = "TENURE_DEBUG";

  private final Map<String, String> environment;
  private boolean verbose;

  @Spec CommandSpec spec;

  /** A launcher that reads {@code TENURE_STORE} and {@code TENURE_DEBUG} from the process. */
  public TenureCommand() {
    this(System.getenv());
  }

  /**
   * @param environment where to read {@code TENURE_STORE} and {@code TENURE_DEBUG}; tests pass
   *     their own
   */
  TenureCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /**
   * Runs the launcher and exits with the command's exit code.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    System.exit(commandLine(new TenureCommand()).execute(args));
  }

  /**
   * Wires the launcher: quiet logging, {@code TENURE_STORE} as the default store, exit codes in
   * every help text, and the one place where failures become messages and exit codes.
   *
   * @return a command line ready to {@link CommandLine#execute execute}
   */
  static CommandLine commandLine(TenureCommand command) {
    configureLogging(command.verbose());
    CommandLine commandLine = new CommandLine(command);
    ErrorHandler errors = new ErrorHandler(command::verbose);
    commandLine.setExecutionExceptionHandler(errors);
    commandLine.setParameterExceptionHandler(errors);
    commandLine.setDefaultValueProvider(new EnvironmentDefaults(command.environment));
    documentExitCodes(commandLine);
    return commandLine;
  }

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Log what the store does, and print stack traces with errors.")
  void setVerbose(boolean verbose) {
    this.verbose = verbose;
    configureLogging(verbose());
  }

  /**
   * @return true if {@code --verbose} was given or {@code TENURE_DEBUG=1} is set
   */
  boolean verbose() {
    return verbose || "1".equals(environment.get(DEBUG_VARIABLE));
  }

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "choose a command: demo, chaos, node, status, agents, queue, dlq, markers, migrate, completion or help");
  }

  private static void configureLogging(boolean verbose) {
    if (verbose) {
      Logging.verbose();
    } else {
      Logging.quiet();
    }
  }

  private static void documentExitCodes(CommandLine commandLine) {
    commandLine
        .getCommandSpec()
        .usageMessage()
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(ExitCodes.help());
    commandLine.getSubcommands().values().forEach(TenureCommand::documentExitCodes);
  }
}
