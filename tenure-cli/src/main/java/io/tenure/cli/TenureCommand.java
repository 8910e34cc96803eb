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
      NodeCommand.class,
      MigrateCommand.class,
      StatusCommand.class,
      NodesCommand.class,
      EventsCommand.class,
      AgentsCommand.class,
      QueueCommand.class,
      MessagesCommand.class,
      DlqCommand.class,
      LocksCommand.class,
      SchedulesCommand.class,
      MarkersCommand.class,
      ChaosCommand.class,
      CompletionCommand.class,
      HelpCommand.class
    },
    footer = {
      "",
      "Only migrate and the node commands (demo, node, chaos) create or change a schema. Every"
          + " other command opens the store as it is: a missing SQLite file, database or schema"
          + " exits 8 naming the migrate command that creates it.",
      "",
      "Store URLs (--store, TENURE_STORE):",
      "  sqlite:PATH                a SQLite file",
      "  jdbc:postgresql://HOST/DB  PostgreSQL; add ?user=U&password=P",
      "  jdbc:mariadb://HOST/DB     MariaDB (jdbc:mysql://HOST/DB for MySQL 8)",
      "  default                    sqlite:tenure-data/tenure.db, the demo's file",
      "",
      "Environment:",
      "  TENURE_STORE    the store URL when --store is not given, for every command",
      "                  (demo and chaos too); it keeps a password off the command line",
      "  TENURE_DEBUG=1  same as --verbose"
    })
public final class TenureCommand implements Callable<Integer> {
  /** The variable that turns on {@code --verbose} for every run. */
  static final String DEBUG_VARIABLE = "TENURE_DEBUG";

  /** Set by the {@code ./tenure} script to how it was called, so printed commands can be pasted. */
  static final String LAUNCHER_VARIABLE = "TENURE_LAUNCHER";

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
   * @return how the user runs the launcher, for commands it prints: {@code $TENURE_LAUNCHER} (the
   *     {@code ./tenure} script sets it to how it was called), else {@code tenure}
   */
  String launcher() {
    String launcher = environment.get(LAUNCHER_VARIABLE);
    return launcher == null || launcher.isBlank() ? "tenure" : launcher;
  }

  /**
   * @return {@link #launcher()} of the launcher that runs {@code command}
   */
  static String launcher(CommandSpec command) {
    return command.root().userObject() instanceof TenureCommand tenure
        ? tenure.launcher()
        : "tenure";
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
        spec.commandLine(),
        "choose a command: demo, chaos, node, status, nodes, events, agents, queue, dlq,"
            + " markers, migrate, completion or help");
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
