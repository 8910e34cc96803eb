package io.tenure.checks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles snippets with javac against this module's test class path (every Tenure module). */
final class SnippetCompiler {
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile(
          "(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*"
              + "(?:class|interface|record|enum)\\s+(\\w+)");

  private SnippetCompiler() {}

  /**
   * @return one line per compile error: the snippet's file and fence line, javac's message and the
   *     wrapped line it points at; empty if every snippet compiled
   */
  static List<String> errors(List<Snippet> snippets) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    // Sources in the snippets' order (javac reports in it); the map only finds a source's snippet.
    List<JavaFileObject> sources = new ArrayList<>();
    Map<JavaFileObject, Snippet> units = new IdentityHashMap<>();
    for (Snippet snippet : snippets) {
      Source source = new Source(snippet);
      sources.add(source);
      units.put(source, snippet);
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out;
    try {
      out = Files.createTempDirectory("tenure-snippets-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> options =
        List.of("--release", "21", "-proc:none", "-classpath", classPath(), "-d", out.toString());
    javac.getTask(null, null, diagnostics, options, null, sources).call();
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      Snippet snippet = units.get(d.getSource());
      String where = snippet == null ? "?" : snippet.toString();
      String shown = snippet == null ? "" : line(snippet.source(), d.getLineNumber());
      errors.add(where + ": " + d.getMessage(Locale.ROOT) + "\n    at: " + shown.strip());
    }
    return errors;
  }

  private static String line(String source, long number) {
    String[] lines = source.split("\n", -1);
    return number >= 1 && number <= lines.length ? lines[(int) number - 1] : "";
  }

  /** Surefire puts the test class path in its own property when it forks with a manifest jar. */
  private static String classPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  /** A snippet's wrapped source, named so that javac accepts its one public type, if any. */
  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(Snippet snippet) {
      super(uri(snippet), Kind.SOURCE);
      this.code = snippet.source();
    }

    private static URI uri(Snippet snippet) {
      Matcher type = PUBLIC_TYPE.matcher(snippet.code());
      String name = type.find() ? type.group(1) : "Snippet";
      return URI.create(
          "string:///" + snippet.packageName().replace('.', '/') + "/" + name + ".java");
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
