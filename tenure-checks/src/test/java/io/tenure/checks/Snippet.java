package io.tenure.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ```java} block of a Markdown file and how it is wrapped to compile. The convention
 * (docs/TESTING.md, "Java snippets compile"): a block compiles as a whole file unless the line
 * before it is an HTML comment {@code <!-- snippet: MODE [provider]} whose following lines, up to
 * {@code -->}, are its context:
 *
 * <ul>
 *   <li>{@code file}: the block is a compilation unit;
 *   <li>{@code class}: the block is the body of a class;
 *   <li>{@code method}: the block is the body of a method that may throw anything.
 * </ul>
 *
 * The block's leading {@code import} lines become the file's imports in every mode. Context lines
 * that start with {@code import} are imports too; the others are declarations beside the block: in
 * the wrapper class (class, method), or after the block (file). {@code provider} marks a snippet
 * written for store providers, which may use the SPI.
 *
 * @param file the Markdown file, relative to the repository root
 * @param line the line of the opening fence, 1-based
 * @param mode file, class or method
 * @param provider whether the snippet is for providers (may name {@code io.tenure.spi})
 * @param code the block as printed
 * @param context the comment's context lines
 */
record Snippet(
    String file, int line, String mode, boolean provider, String code, List<String> context) {
  private static final Pattern HEADER =
      Pattern.compile("<!-- snippet: (file|class|method)( provider)?");

  /**
   * @return every java block of {@code markdown}, in order
   * @throws IllegalStateException if a snippet comment is malformed or not followed by a block
   */
  static List<Snippet> read(Path root, Path markdown) throws IOException {
    List<String> lines = Files.readAllLines(markdown);
    String name = root.relativize(markdown).toString();
    List<Snippet> snippets = new ArrayList<>();
    String mode = "file";
    boolean provider = false;
    List<String> context = List.of();
    int commentLine = -1;
    for (int i = 0; i < lines.size(); i++) {
      String text = lines.get(i);
      if (text.startsWith("<!-- snippet:")) {
        Matcher header = HEADER.matcher(text.trim());
        if (!header.matches()) {
          throw new IllegalStateException(
              name + ":" + (i + 1) + ": expected '<!-- snippet: file|class|method [provider]'");
        }
        mode = header.group(1);
        provider = header.group(2) != null;
        List<String> lines2 = new ArrayList<>();
        while (!lines.get(++i).trim().equals("-->")) {
          lines2.add(lines.get(i));
        }
        context = lines2;
        commentLine = i;
        continue;
      }
      if (text.trim().equals("```java")) {
        if (commentLine >= 0 && commentLine != i - 1) {
          throw new IllegalStateException(
              name
                  + ":"
                  + (commentLine + 1)
                  + ": a snippet comment must end right before its block");
        }
        int start = i + 1;
        StringBuilder code = new StringBuilder();
        while (!lines.get(++i).trim().equals("```")) {
          code.append(lines.get(i)).append('\n');
        }
        snippets.add(new Snippet(name, start, mode, provider, code.toString(), context));
        mode = "file";
        provider = false;
        context = List.of();
        commentLine = -1;
      } else if (commentLine >= 0 && !text.isBlank()) {
        throw new IllegalStateException(
            name + ":" + (commentLine + 1) + ": a snippet comment must end right before its block");
      }
    }
    return snippets;
  }

  /**
   * @return a package for this snippet alone, so that two snippets may declare the same names
   */
  String packageName() {
    String base = file.replaceAll("\\.md$", "").replaceAll("[^A-Za-z0-9]", "_");
    return "snippets." + base.toLowerCase(Locale.ROOT) + "_l" + line;
  }

  /**
   * @return the compilation unit: the snippet wrapped as its mode says
   */
  String source() {
    List<String> imports = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    boolean leading = true;
    for (String text : code.split("\n", -1)) {
      if (leading && (text.startsWith("import ") || text.isBlank())) {
        if (!text.isBlank()) {
          imports.add(text);
        }
      } else {
        leading = false;
        rest.add(text);
      }
    }
    List<String> declarations = new ArrayList<>();
    for (String text : context) {
      (text.startsWith("import ") ? imports : declarations).add(text);
    }
    StringBuilder source = new StringBuilder("package " + packageName() + ";\n");
    imports.forEach(i -> source.append(i).append('\n'));
    String body = String.join("\n", rest);
    String members = String.join("\n", declarations);
    switch (mode) {
      case "file" -> source.append(body).append('\n').append(members).append('\n');
      case "class" ->
          source
              .append("class Snippet {\n")
              .append(body)
              .append('\n')
              .append(members)
              .append("\n}\n");
      default ->
          source
              .append("class Snippet {\n")
              .append(members)
              .append("\nvoid snippet() throws Exception {\n")
              .append(body)
              .append("\n}\n}\n");
    }
    return source.toString();
  }

  @Override
  public String toString() {
    return file + ":" + line;
  }
}
