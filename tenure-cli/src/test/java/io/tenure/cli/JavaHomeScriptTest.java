package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/java-home.sh, which ./tenure and ./run-tests source: the newest JDK 21+ found wins, an
 * explicit JAVA_HOME is only a candidate, and TENURE_JAVA_HOME pins one. Fake JDKs far newer than
 * any real one keep the answers independent of what the machine has installed.
 */
class JavaHomeScriptTest {
  @TempDir Path jdks;

  record Run(int exitCode, String javaHome, String err) {}

  @Test
  void the_newest_jdk_wins_over_an_older_java_home() throws Exception {
    Path javaHome = fakeJdk("jdk-21", 21);
    Path newer = fakeJdk("jdk-98", 98);

    Run run = source(Map.of("JAVA_HOME", javaHome.toString()), newer);

    assertThat(run.javaHome()).as(run.toString()).isEqualTo(newer.toString());
  }

  @Test
  void java_home_is_a_candidate_and_wins_when_it_is_the_newest() throws Exception {
    Path javaHome = fakeJdk("jdk-99", 99);

    Run run = source(Map.of("JAVA_HOME", javaHome.toString()), fakeJdk("jdk-98", 98));

    assertThat(run.javaHome()).as(run.toString()).isEqualTo(javaHome.toString());
  }

  @Test
  void tenure_java_home_pins_a_jdk_even_when_a_newer_one_exists() throws Exception {
    Path pinned = fakeJdk("jdk-22", 22);

    Run run =
        source(
            Map.of(
                "TENURE_JAVA_HOME",
                pinned.toString(),
                "JAVA_HOME",
                fakeJdk("jdk-99", 99).toString()),
            fakeJdk("jdk-98", 98));

    assertThat(run.javaHome()).as(run.toString()).isEqualTo(pinned.toString());
  }

  @Test
  void a_pinned_jdk_older_than_21_is_refused_naming_it() throws Exception {
    Path old = fakeJdk("jdk-17", 17);

    Run run = source(Map.of("TENURE_JAVA_HOME", old.toString()), fakeJdk("jdk-98", 98));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("TENURE_JAVA_HOME=" + old, "JDK 17", "21 or newer");
  }

  /**
   * A directory with bin/java and bin/javac that report {@code version} the way the script asks.
   */
  private Path fakeJdk(String name, int version) throws IOException {
    Path bin = Files.createDirectories(jdks.resolve(name).resolve("bin"));
    String script = "#!/bin/sh\necho '    java.specification.version = " + version + "' >&2\n";
    for (String tool : List.of("java", "javac")) {
      Path file = Files.writeString(bin.resolve(tool), script);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin.getParent();
  }

  /**
   * Sources the script in bash with {@code onPath} first on PATH and prints the JAVA_HOME it chose.
   */
  private static Run source(Map<String, String> environment, Path onPath) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
            "bash", "-c", ". \"$0\" && printf %s \"$JAVA_HOME\"", script().toString());
    builder.environment().remove("JAVA_HOME");
    builder.environment().remove("TENURE_JAVA_HOME");
    builder.environment().putAll(environment);
    builder
        .environment()
        .put("PATH", onPath.resolve("bin") + ":" + builder.environment().get("PATH"));
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), out, err);
  }

  private static Path script() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path script = dir.resolve("scripts/java-home.sh");
      if (Files.isRegularFile(script)) {
        return script;
      }
    }
    throw new AssertionError(
        "scripts/java-home.sh not found above " + Path.of("").toAbsolutePath());
  }
}
