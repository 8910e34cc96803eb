package io.tenure.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of README.md and docs/*.md compiles as printed, wrapped only as its
 * {@code <!-- snippet: ... -->} comment says (see {@link Snippet}), and the snippets written for
 * applications name nothing but the public API.
 */
class DocSnippetsTest {
  /** What an application never needs: the provider SPI, the runtime, a provider's classes. */
  private static final List<String> NOT_FOR_APPLICATIONS =
      List.of("io.tenure.spi", "io.tenure.internal", "io.tenure.inmemory", "io.tenure.jdbc");

  @Test
  void every_java_block_of_the_readme_and_the_docs_compiles_as_printed() throws IOException {
    List<Snippet> snippets = all();
    assertThat(snippets).as("java blocks found").hasSizeGreaterThanOrEqualTo(8);
    assertThat(SnippetCompiler.errors(snippets)).isEmpty();
  }

  @Test
  void snippets_for_applications_name_only_the_public_api() throws IOException {
    List<String> offenders = new ArrayList<>();
    for (Snippet snippet : all()) {
      if (snippet.provider()) {
        continue;
      }
      String text = snippet.code() + String.join("\n", snippet.context());
      NOT_FOR_APPLICATIONS.stream()
          .filter(text::contains)
          .forEach(name -> offenders.add(snippet + " names " + name));
    }
    assertThat(offenders).isEmpty();
  }

  /** The harness itself can fail: a snippet that does not compile is reported where it is. */
  @Test
  void a_snippet_that_does_not_compile_is_reported_with_its_file_and_line() {
    Snippet unknownVariable =
        new Snippet(
            "docs/BROKEN.md",
            12,
            "method",
            false,
            "import io.tenure.*;\n\nQueue q = tenure.queue(\"q\", QueuePolicy.defaults());\n",
            List.of());
    Snippet wrongType =
        new Snippet(
            "docs/BROKEN.md",
            30,
            "file",
            false,
            "class X { io.tenure.Tenure t = 42; }\n",
            List.of());
    List<String> errors = SnippetCompiler.errors(List.of(unknownVariable, wrongType));
    assertThat(errors)
        .hasSize(2)
        .anySatisfy(e -> assertThat(e).startsWith("docs/BROKEN.md:12: ").contains("tenure"))
        .anySatisfy(
            e -> assertThat(e).startsWith("docs/BROKEN.md:30: ").contains("incompatible types"));
  }

  @Test
  void the_context_of_a_snippet_is_declared_beside_it_and_its_imports_lead_the_file() {
    Snippet withContext =
        new Snippet(
            "docs/OK.md",
            5,
            "method",
            false,
            "import io.tenure.*;\n\nQueue q = tenure.queue(\"q\", QueuePolicy.defaults());\n",
            List.of("Tenure tenure;"));
    assertThat(withContext.source())
        .startsWith("package snippets.docs_ok_l5;\nimport io.tenure.*;\n")
        .contains("Tenure tenure;\nvoid snippet() throws Exception {");
    assertThat(SnippetCompiler.errors(List.of(withContext))).isEmpty();
  }

  private static List<Snippet> all() throws IOException {
    Path root = root();
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<Snippet> snippets = new ArrayList<>();
    for (Path file : files) {
      snippets.addAll(Snippet.read(root, file));
    }
    return snippets;
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
