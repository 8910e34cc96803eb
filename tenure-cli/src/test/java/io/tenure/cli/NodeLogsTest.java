package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.server.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tenure node --verbose} process: every line it logs on stderr names the node, its
 * incarnation id once built, and epoch 1 once it has led; stdout keeps its state lines unchanged.
 */
@Timeout(120)
class NodeLogsTest {
  private static final Pattern JOINED = Pattern.compile("^\\S+ node (\\S+) joined as solo$");
  private static final Pattern LOGFMT_LINE =
      Pattern.compile(
          "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z (TRACE|DEBUG|INFO|WARN|ERROR) .*");

  @TempDir Path directory;

  /** What the node printed: its id from stdout, and every stderr line. */
  private record Run(String nodeId, List<String> stdout, List<String> stderr) {}

  private Run runUntilLeaderThenStop(String... extra) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                TenureCommand.class.getName(),
                "node",
                "--store",
                "sqlite:" + directory.resolve("n.db"),
                "--name",
                "solo",
                "--renew-interval",
                "200ms",
                "--verbose"));
    command.addAll(List.of(extra));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("TENURE_STORE");
    builder.environment().remove("TENURE_DEBUG");
    Process process = builder.start();
    List<String> stderr = new CopyOnWriteArrayList<>();
    Thread drain =
        Thread.ofPlatform().daemon().start(() -> collect(process.getErrorStream(), stderr));
    List<String> stdout = new ArrayList<>();
    try (BufferedReader out = reader(process.getInputStream())) {
      // It may win the election before it prints that it joined: read until both are seen.
      awaitLine(out, stdout, "(solo) is leader at epoch 1");
      while (stdout.stream().noneMatch(line -> JOINED.matcher(line).matches())) {
        awaitLine(out, stdout, "joined as solo");
      }
      // Through the handle (SIGTERM): Process.destroy() would also close our end of its output.
      process.toHandle().destroy();
      awaitLine(out, stdout, "no longer leader at epoch 1");
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the node left after SIGTERM").isTrue();
      drain.join(TimeUnit.SECONDS.toMillis(30));
    } finally {
      process.destroyForcibly();
    }
    String nodeId =
        stdout.stream()
            .map(JOINED::matcher)
            .filter(Matcher::matches)
            .findFirst()
            .orElseThrow()
            .group(1);
    return new Run(nodeId, stdout, List.copyOf(stderr));
  }

  private static BufferedReader reader(InputStream stream) {
    return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
  }

  private static void collect(InputStream stream, List<String> lines) {
    try (BufferedReader in = reader(stream)) {
      in.lines().forEach(lines::add);
    } catch (IOException | UncheckedIOException e) {
      // the process is gone; what was read is kept
    }
  }

  private static void awaitLine(BufferedReader out, List<String> seen, String part)
      throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      seen.add(line);
      if (line.contains(part)) {
        return;
      }
    }
    throw new AssertionError("the node exited before printing '" + part + "'; it printed " + seen);
  }

  @Test
  void every_logfmt_line_names_the_node_and_after_leading_carries_its_id_and_epoch_1()
      throws Exception {
    Run run = runUntilLeaderThenStop();

    List<String> logLines =
        run.stderr().stream().filter(line -> LOGFMT_LINE.matcher(line).matches()).toList();
    assertThat(logLines)
        .as(run.toString())
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).contains(" node=solo "));
    assertThat(logLines)
        .filteredOn(line -> line.contains(" nodeId="))
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).contains(" nodeId=" + run.nodeId() + " "));
    assertThat(logLines)
        .filteredOn(line -> line.contains("stepped down as leader at epoch 1"))
        .as(run.toString())
        .singleElement()
        .asString()
        .contains(" INFO node=solo nodeId=" + run.nodeId() + " epoch=1 logger=io.tenure.");
    assertThat(logLines)
        .filteredOn(line -> line.contains(" epoch="))
        .allSatisfy(line -> assertThat(line).contains(" epoch=1 "));
    assertThat(run.stdout())
        .as("logs stay off stdout")
        .noneMatch(line -> LOGFMT_LINE.matcher(line).matches());
  }

  @Test
  void with_log_format_json_every_line_is_an_object_with_the_same_fields() throws Exception {
    Run run = runUntilLeaderThenStop("--log-format", "json");

    List<Map<String, Object>> events =
        run.stderr().stream().filter(line -> line.startsWith("{")).map(Json::parseObject).toList();
    assertThat(events)
        .as(run.toString())
        .isNotEmpty()
        .allSatisfy(
            event ->
                assertThat(event)
                    .containsEntry("node", "solo")
                    .containsKeys("time", "level", "logger", "thread", "msg"));
    assertThat(events)
        .filteredOn(
            event -> String.valueOf(event.get("msg")).contains("stepped down as leader at epoch 1"))
        .singleElement()
        .satisfies(
            event ->
                assertThat(event).containsEntry("nodeId", run.nodeId()).containsEntry("epoch", 1L));
  }
}
