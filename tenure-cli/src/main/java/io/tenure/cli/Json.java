package io.tenure.cli;

import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes the few value types the commands produce as compact JSON. Hand-written so the launcher
 * needs no JSON library.
 */
final class Json {
  private Json() {}

  /**
   * @param value null, a String, Boolean, Integer, Long, Instant, Enum, Map with String keys, or a
   *     Collection of those
   * @return the value as one line of JSON
   * @throws IllegalArgumentException for any other type
   */
  static String write(@Nullable Object value) {
    StringBuilder json = new StringBuilder();
    append(json, value);
    return json.toString();
  }

  private static void append(StringBuilder json, @Nullable Object value) {
    switch (value) {
      case null -> json.append("null");
      case String text -> string(json, text);
      case Boolean bool -> json.append(bool);
      case Integer number -> json.append(number);
      case Long number -> json.append(number);
      case Instant instant -> string(json, instant.toString());
      case Enum<?> constant -> string(json, constant.name());
      case Map<?, ?> map -> object(json, map);
      case Collection<?> list -> array(json, list);
      default ->
          throw new IllegalArgumentException(
              "cannot write a " + value.getClass().getName() + " as JSON");
    }
  }

  private static void object(StringBuilder json, Map<?, ?> map) {
    json.append('{');
    Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<?, ?> entry = entries.next();
      string(json, String.valueOf(entry.getKey()));
      json.append(':');
      append(json, entry.getValue());
      json.append(entries.hasNext() ? "," : "");
    }
    json.append('}');
  }

  private static void array(StringBuilder json, Collection<?> list) {
    json.append('[');
    Iterator<?> items = list.iterator();
    while (items.hasNext()) {
      append(json, items.next());
      json.append(items.hasNext() ? "," : "");
    }
    json.append(']');
  }

  /**
   * Escapes quotes, backslashes and control characters, and also every non-ASCII character: the
   * output is then pure ASCII, valid whatever encoding the terminal or pipe uses, and an unpaired
   * surrogate cannot produce invalid UTF-8.
   */
  private static void string(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        case '\b' -> json.append("\\b");
        case '\f' -> json.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }
}
