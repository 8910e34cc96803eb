package io.tenure.cli;

import io.tenure.server.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Where a command writes its result: aligned text for people, or one JSON object for scripts. */
final class Output {
  private final PrintWriter out;
  private final boolean json;

  Output(PrintWriter out, boolean json) {
    this.out = out;
    this.json = json;
  }

  /**
   * @return true if the user asked for {@code --json}
   */
  boolean json() {
    return json;
  }

  /** Writes the command's one JSON object on one line. */
  void object(Map<String, ?> fields) {
    out.println(Json.write(fields));
    out.flush();
  }

  /** Writes one line of text. */
  void line(String text) {
    out.println(printable(text));
    out.flush();
  }

  /** Writes key/value lines with the values aligned in one column. */
  void fields(Map<String, String> fields, String indent) {
    int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0);
    fields.forEach((key, value) -> line(indent + pad(key, width) + "  " + value));
  }

  /** Writes rows under a header, each column as wide as its widest cell. */
  void table(List<String> header, List<List<String>> rows) {
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    aligned(all).forEach(this::line);
  }

  /**
   * @return the rows as lines, each column as wide as its widest cell in any row; for tables
   *     printed in several groups that must line up with each other
   */
  static List<String> aligned(List<List<String>> rows) {
    int[] widths = new int[rows.stream().mapToInt(List::size).max().orElse(0)];
    for (List<String> row : rows) {
      for (int column = 0; column < row.size(); column++) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    return rows.stream().map(row -> row(row, widths)).toList();
  }

  private static String row(List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int column = 0; column < cells.size(); column++) {
      line.append(pad(cells.get(column), widths[column])).append("  ");
    }
    return line.toString().stripTrailing();
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(Math.max(0, width - text.length()));
  }

  /**
   * Shows control characters as {@code \\uXXXX}: a marker reason is free text, and an escape
   * sequence in it must not reach the terminal.
   */
  private static String printable(String text) {
    StringBuilder shown = new StringBuilder(text.length());
    text.codePoints()
        .forEach(
            cp -> {
              if (Character.isISOControl(cp)) {
                shown.append(String.format("\\u%04x", cp));
              } else {
                shown.appendCodePoint(cp);
              }
            });
    return shown.toString();
  }
}
