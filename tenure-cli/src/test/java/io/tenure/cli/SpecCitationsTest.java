package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code cites the specification by section ("SPEC" and a section sign with its number); each
 * citation must lead to a heading of docs/SPEC.md, so a reader can check the claim against the
 * promise. The section sign is written as an escape here, so this file cites nothing itself.
 */
class SpecCitationsTest {
  private static final Pattern CITATION = Pattern.compile("\u00a7(\\d+(?:\\.\\d+)*)");
  private static final Pattern HEADING =
      Pattern.compile("^#{2,6} \u00a7(\\d+(?:\\.\\d+)*) \\S", Pattern.MULTILINE);

  @Test
  void every_section_the_java_sources_cite_is_a_heading_of_the_spec() throws IOException {
    Set<String> headings = headings();
    Map<String, List<String>> citations = citations();

    Map<String, List<String>> unknown = new TreeMap<>(citations);
    unknown.keySet().removeAll(headings);

    assertThat(citations).as("citations found in the Java sources").hasSizeGreaterThan(30);
    assertThat(unknown).as("sections cited but missing from docs/SPEC.md, with where").isEmpty();
  }

  @Test
  void every_subsection_of_the_spec_sits_under_its_section_and_appears_once() throws IOException {
    String spec = Files.readString(root().resolve("docs/SPEC.md"), StandardCharsets.UTF_8);
    List<String> numbers = new ArrayList<>();
    Matcher heading = HEADING.matcher(spec);
    while (heading.find()) {
      numbers.add(heading.group(1));
    }

    assertThat(numbers).doesNotHaveDuplicates().contains("1", "6", "6.2", "13.1");
    for (String number : numbers) {
      if (number.contains(".")) {
        assertThat(numbers).as("parent of " + number).contains(number.replaceAll("\\.\\d+$", ""));
      }
    }
  }

  private static Set<String> headings() throws IOException {
    String spec = Files.readString(root().resolve("docs/SPEC.md"), StandardCharsets.UTF_8);
    Set<String> found = new TreeSet<>();
    Matcher heading = HEADING.matcher(spec);
    while (heading.find()) {
      found.add(heading.group(1));
    }
    return found;
  }

  /**
   * @return each cited section, with the files citing it
   */
  private static Map<String, List<String>> citations() throws IOException {
    Path root = root();
    Map<String, List<String>> found = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(path -> path.toString().endsWith(".java"))
          .filter(path -> !root.relativize(path).toString().contains("target/"))
          .filter(path -> root.relativize(path).toString().contains("src/"))
          .forEach(
              path -> {
                Matcher citation = CITATION.matcher(read(path));
                while (citation.find()) {
                  found
                      .computeIfAbsent(citation.group(1), n -> new ArrayList<>())
                      .add(root.relativize(path).toString());
                }
              });
    }
    return found;
  }

  private static String read(Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/SPEC.md"))
          && Files.isDirectory(dir.resolve("tenure-core"))) {
        return dir;
      }
    }
    throw new AssertionError("docs/SPEC.md not found above " + Path.of("").toAbsolutePath());
  }
}
