package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.cli.Cli.Result;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Help, version, completion, the environment, and how much a failure prints. */
class LauncherTest {
  private static final List<String> LOG_PROPERTIES =
      List.of(
          "org.slf4j.simpleLogger.defaultLogLevel",
          "org.slf4j.simpleLogger.log.com.zaxxer.hikari",
          "org.slf4j.simpleLogger.log.io.tenure");

  @TempDir Path directory;

  private final Map<String, String> savedLogProperties = new HashMap<>();

  // --verbose sets logging properties for the JVM; restore them so other tests stay quiet.
  @BeforeEach
  void saveLogProperties() {
    LOG_PROPERTIES.forEach(p -> savedLogProperties.put(p, System.getProperty(p)));
  }

  @AfterEach
  void restoreLogProperties() {
    savedLogProperties.forEach(
        (property, value) -> {
          if (value == null) {
            System.clearProperty(property);
          } else {
            System.setProperty(property, value);
          }
        });
  }

  @Test
  void help_lists_the_commands_and_every_exit_code() {
    Result help = Cli.run("--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out())
        .contains("migrate", "status", "markers", "completion", "Exit codes:", "TENURE_STORE")
        .contains("agents", "queue", "dlq")
        .containsPattern("(?m)^ +0 +done")
        .containsPattern("(?m)^ +3 +conflict")
        .containsPattern("(?m)^ +4 +not found")
        .containsPattern("(?m)^ +5 +store unavailable")
        .containsPattern("(?m)^ +6 +unsupported")
        .containsPattern("(?m)^ +7 +demo or chaos")
        .containsPattern("(?m)^ +8 +no Tenure schema")
        .contains("nodes", "events", "sqlite:tenure-data/tenure.db");
  }

  @Test
  void every_subcommand_help_lists_the_exit_codes_too() {
    Result help = Cli.run("markers", "transition", "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out())
        .contains("TENANT", "--reason", "--store", "--prefix", "--json", "Exit codes:");
  }

  @Test
  void version_names_the_release() {
    Result version = Cli.run("--version");

    assertThat(version.exitCode()).isZero();
    assertThat(version.out().strip()).isEqualTo("tenure 0.1.0-SNAPSHOT");
  }

  @Test
  void completion_prints_a_bash_script_covering_commands_and_options() {
    Result completion = Cli.run("completion");

    assertThat(completion.exitCode()).isZero();
    assertThat(completion.out())
        .contains("complete -F")
        .contains("transition", "--store", "--prefix");
  }

  @Test
  void completion_covers_the_agents_queue_and_dead_letter_commands() {
    String completion = Cli.run("completion").out();

    assertThat(completion)
        .contains("function _picocli_tenure_agents()", "function _picocli_tenure_queue_stats()")
        .contains("function _picocli_tenure_dlq_replay()", "function _picocli_tenure_dlq_purge()")
        .contains("--error-contains", "--older-than", "--yes", "--family");
  }

  @Test
  void the_dead_letter_commands_have_help_with_their_options_and_exit_codes() {
    for (String command : List.of("list", "show", "replay", "purge")) {
      Result help = Cli.run("dlq", command, "--help");

      assertThat(help.exitCode()).isZero();
      assertThat(help.out()).contains("--json", "--store", "Exit codes:");
    }
    assertThat(Cli.run("dlq", "replay", "--help").out()).contains("--id", "--all", "--key");
  }

  @Test
  void the_store_defaults_to_a_sqlite_file_under_tenure_data() {
    assertThat(parsedStore(Map.of(), "status")).isEqualTo("sqlite:tenure-data/tenure.db");
  }

  @Test
  void tenure_store_in_the_environment_replaces_the_default_but_not_the_flag() {
    Map<String, String> environment = Map.of("TENURE_STORE", "sqlite:from-env.db");

    assertThat(parsedStore(environment, "markers", "get", "t", "r"))
        .isEqualTo("sqlite:from-env.db");
    assertThat(parsedStore(environment, "status", "--store", "sqlite:flag.db"))
        .isEqualTo("sqlite:flag.db");
  }

  @Test
  void tenure_store_in_the_environment_is_the_store_commands_open() {
    Path file = directory.resolve("env.db");

    Result migrate = Cli.run(Map.of("TENURE_STORE", "sqlite:" + file), "migrate");

    assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
    assertThat(file).exists();
  }

  @Test
  void tenure_store_in_the_environment_is_the_store_of_the_demo_and_the_fault_harness_too() {
    Map<String, String> environment = Map.of("TENURE_STORE", "jdbc:postgresql://db/app");

    assertThat(parsed(environment, DemoCommand.class, "demo").store)
        .isEqualTo("jdbc:postgresql://db/app");
    assertThat(parsed(environment, ChaosCommand.class, "chaos").store)
        .isEqualTo("jdbc:postgresql://db/app");
    assertThat(parsed(Map.of(), DemoCommand.class, "demo").store)
        .as("default: a fresh SQLite file")
        .isNull();
    assertThat(parsed(Map.of(), ChaosCommand.class, "chaos").store).isEqualTo("sqlite");
  }

  @Test
  void the_demo_by_default_runs_on_the_file_every_other_command_reads() {
    DemoCommand demo = parsed(Map.of(), DemoCommand.class, "demo");

    assertThat("sqlite:" + demo.dir.resolve("tenure.db")).isEqualTo(StoreOptions.DEFAULT_URL);
  }

  private static <T> T parsed(Map<String, String> environment, Class<T> type, String... args) {
    CommandLine commandLine = TenureCommand.commandLine(new TenureCommand(environment));
    List<CommandLine> parsed = commandLine.parseArgs(args).asCommandLineList();
    return type.cast(parsed.get(parsed.size() - 1).getCommand());
  }

  private static String parsedStore(Map<String, String> environment, String... args) {
    CommandLine commandLine = TenureCommand.commandLine(new TenureCommand(environment));
    List<CommandLine> parsed = commandLine.parseArgs(args).asCommandLineList();
    Object command = parsed.get(parsed.size() - 1).getCommand();
    return ((StoreCommand) command).storeOptions.url;
  }

  @Test
  void a_failure_prints_no_stack_trace_by_default() {
    Result result = Cli.run("status", "--store", "oracle:x");

    assertThat(result.err()).doesNotContain("\tat ");
  }

  @Test
  void verbose_prints_the_stack_trace_before_the_one_line_message_on_any_command() {
    Result before = Cli.run("--verbose", "status", "--store", "oracle:x");
    Result after = Cli.run("markers", "get", "t", "r", "--store", "oracle:x", "--verbose");

    assertThat(List.of(before, after))
        .allSatisfy(
            result -> {
              assertThat(result.exitCode()).isEqualTo(6);
              assertThat(result.err()).contains("UnsupportedDatabaseException", "\tat ");
              assertThat(result.errLines().getLast()).startsWith("tenure: ");
            });
  }

  @Test
  void tenure_debug_in_the_environment_is_the_same_as_verbose() {
    Result result = Cli.run(Map.of("TENURE_DEBUG", "1"), "status", "--store", "oracle:x");

    assertThat(result.err()).contains("\tat ");
  }
}
