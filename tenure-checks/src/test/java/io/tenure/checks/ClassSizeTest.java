package io.tenure.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main class of the product's modules is over 400 lines (issue 16; STYLE.md: a class over about
 * 400 lines is a design question), the user test kit included (applications' tests run it). The
 * compliance kit, the harness and the benchmarks are not shipped into applications and are left
 * out.
 */
class ClassSizeTest {
  private static final int MOST = 400;
  private static final List<String> MODULES =
      List.of(
          "tenure-core",
          "tenure-jdbc",
          "tenure-server",
          "tenure-cli",
          "tenure-test",
          "tenure-spring-boot-starter");

  @Test
  void no_main_class_of_core_jdbc_server_cli_the_test_kit_or_the_starter_is_over_400_lines()
      throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("tenure-core"))) {
      root = root.getParent();
    }
    Path project = root;
    List<Path> sources =
        MODULES.stream()
            .flatMap(m -> javaFiles(project.resolve(m).resolve("src/main/java")))
            .toList();

    assertThat(sources).as("the scan sees the sources").hasSizeGreaterThan(200);
    assertThat(sources)
        .filteredOn(file -> lines(file) > MOST)
        .as("main classes over %d lines", MOST)
        .isEmpty();
  }

  private static Stream<Path> javaFiles(Path folder) {
    try (Stream<Path> all = Files.walk(folder)) {
      return all.filter(p -> p.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
