package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code main} in a fresh JVM, where logging is configured from scratch: what a user sees on
 * the real stdout and stderr, and the exit code {@code System.exit} returns.
 */
class ProcessOutputTest {
  @TempDir Path directory;

  record Run(int exitCode, String out, String err) {}

  private static Run tenure(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The jar's manifest grants this; here the classes run from the class path.
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), TenureCommand.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("TENURE_STORE");
    builder.environment().remove("TENURE_DEBUG");
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), out, err);
  }

  @Test
  void a_successful_command_prints_its_result_and_nothing_on_stderr() throws Exception {
    assertThat(tenure("migrate", "--store", "sqlite:" + directory.resolve("t.db")).exitCode())
        .isZero();

    Run run = tenure("status", "--store", "sqlite:" + directory.resolve("t.db"));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).containsPattern("schema version +[1-9]");
    assertThat(run.err()).as("no pool or driver logging").isEmpty();
  }

  @Test
  void a_store_without_a_schema_prints_one_line_naming_migrate_exits_8_and_creates_no_file()
      throws Exception {
    Run run = tenure("status", "--store", "sqlite:" + directory.resolve("none.db"));

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(8);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList())
        .as(run.toString())
        .singleElement()
        .asString()
        .startsWith("tenure: no Tenure database at ")
        .contains("tenure migrate --store sqlite:");
    assertThat(directory.resolve("none.db")).doesNotExist();
  }

  @Test
  void an_unreachable_store_prints_exactly_one_line_on_stderr_and_exits_5() throws Exception {
    Run run = tenure("status", "--store", "jdbc:postgresql://127.0.0.1:1/test?user=postgres");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(5);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList())
        .as(run.toString())
        .singleElement()
        .asString()
        .startsWith("tenure: ")
        .contains("127.0.0.1:1");
  }
}
