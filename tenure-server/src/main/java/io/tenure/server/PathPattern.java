package io.tenure.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The paths one route takes, written as the docs write them: literal segments, {@code {name}} for
 * exactly one non-empty segment (matched raw, still URL-encoded, so an encoded slash stays inside
 * it), and a final {@code /**} for the path itself and every path under it. A trailing slash is a
 * segment of its own: {@code /api/cluster/} is not {@code /api/cluster}. {@code /**} alone takes
 * every path.
 *
 * @param text the pattern as written, e.g. {@code /api/queues/{name}/dead}
 */
record PathPattern(String text, List<String> segments, boolean subtree) {
  private static final String SUBTREE = "/**";

  /**
   * @throws IllegalArgumentException if {@code text} does not start with {@code /}, or has an empty
   *     or half-written placeholder
   */
  static PathPattern parse(String text) {
    if (!text.startsWith("/")) {
      throw new IllegalArgumentException("a path pattern starts with /, got " + text);
    }
    boolean subtree = text.endsWith(SUBTREE);
    String fixed = subtree ? text.substring(0, text.length() - SUBTREE.length()) : text;
    List<String> segments =
        fixed.isEmpty() ? List.of() : List.of(fixed.substring(1).split("/", -1));
    for (String segment : segments) {
      boolean open = segment.startsWith("{");
      if (open != segment.endsWith("}") || segment.equals("{}") || segment.contains("*")) {
        throw new IllegalArgumentException("bad segment '" + segment + "' in path pattern " + text);
      }
    }
    return new PathPattern(text, segments, subtree);
  }

  /**
   * @return the placeholders' raw values by name if {@code path} is one this pattern takes
   */
  Optional<Map<String, String>> match(String path) {
    if (!path.startsWith("/")) {
      return Optional.empty();
    }
    String[] parts = path.substring(1).split("/", -1);
    if (subtree ? parts.length < segments.size() : parts.length != segments.size()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String segment = segments.get(i);
      if (segment.startsWith("{")) {
        if (parts[i].isEmpty()) {
          return Optional.empty();
        }
        values.put(segment.substring(1, segment.length() - 1), parts[i]);
      } else if (!segment.equals(parts[i])) {
        return Optional.empty();
      }
    }
    return Optional.of(values);
  }
}
