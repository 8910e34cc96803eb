package io.tenure.server;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes the few value types the commands and the admin API produce as compact JSON, and reads JSON
 * strictly (request bodies, tests). Hand-written so the launcher needs no JSON library.
 */
public final class Json {
  /**
   * How deep arrays and objects may nest in what {@link #parseObject} reads: far more than any
   * request needs, and far less than the recursion a thread's stack holds.
   */
  public static final int MAX_DEPTH = 64;

  private final String text;
  private int at;
  private int depth;

  private Json(String text) {
    this.text = text;
  }

  /**
   * @param value null, a String, Boolean, Integer, Long, finite Double, Instant, Enum, Map with
   *     String keys, or a Collection of those
   * @return the value as one line of JSON
   * @throws IllegalArgumentException for any other type
   */
  public static String write(@Nullable Object value) {
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
      case Double number when Double.isFinite(number) -> json.append(number);
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

  /**
   * Reads one JSON object. Numbers come back as Long (or Double when they have a fraction or an
   * exponent), objects as ordered maps, arrays as lists.
   *
   * @throws IllegalArgumentException naming the position, if the text is not exactly one object or
   *     nests deeper than {@link #MAX_DEPTH}
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    Json parser = new Json(text);
    Object value = parser.value();
    parser.skipSpace();
    if (parser.at != parser.text.length()) {
      throw parser.error("trailing text");
    }
    if (!(value instanceof Map)) {
      throw parser.error("expected one object");
    }
    return (Map<String, Object>) value;
  }

  private @Nullable Object value() {
    char c = peek();
    return switch (c) {
      case '{', '[' -> nested(c);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  /** An object or array, one level deeper: refused past the cap, before the stack can overflow. */
  private Object nested(char open) {
    if (++depth > MAX_DEPTH) {
      throw error("arrays and objects nested deeper than " + MAX_DEPTH + " levels");
    }
    Object value = open == '{' ? object() : array();
    depth--;
    return value;
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    expect('{');
    if (peek() == '}') {
      at++;
      return map;
    }
    do {
      skipSpace();
      String key = string();
      expect(':');
      if (map.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      map.put(key, value());
    } while (next() == ',');
    at--;
    expect('}');
    return map;
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    expect('[');
    if (peek() == ']') {
      at++;
      return list;
    }
    do {
      list.add(value());
    } while (next() == ',');
    at--;
    expect(']');
    return list;
  }

  private String string() {
    if (at >= text.length() || text.charAt(at) != '"') {
      throw error("expected a string");
    }
    at++;
    StringBuilder out = new StringBuilder();
    for (char c = raw(); c != '"'; c = raw()) {
      if (c < 0x20) {
        throw error("raw control character in string");
      }
      out.append(c == '\\' ? escape() : c);
    }
    return out.toString();
  }

  private char escape() {
    char c = raw();
    return switch (c) {
      case '"', '\\', '/' -> c;
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'u' -> {
        if (at + 4 > text.length()) {
          throw error("short \\u escape");
        }
        at += 4;
        try {
          yield (char) Integer.parseInt(text.substring(at - 4, at), 16);
        } catch (NumberFormatException e) {
          throw error("bad \\u escape");
        }
      }
      default -> throw error("bad escape \\" + c);
    };
  }

  private @Nullable Object literal(String word, @Nullable Object value) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private Object number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String digits = text.substring(start, at);
    try {
      return digits.matches("-?\\d+")
          ? (Object) Long.parseLong(digits)
          : (Object) Double.parseDouble(digits);
    } catch (NumberFormatException e) {
      at = start;
      throw error("unexpected character");
    }
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected '" + c + "'");
    }
  }

  private void skipSpace() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  /** The next character that is not white space, without taking it. */
  private char peek() {
    skipSpace();
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(at);
  }

  private char next() {
    char c = peek();
    at++;
    return c;
  }

  /** The next character as is (inside a string). */
  private char raw() {
    if (at >= text.length()) {
      throw error("unterminated string");
    }
    return text.charAt(at++);
  }

  private IllegalArgumentException error(String problem) {
    String shown = text.length() > 200 ? text.substring(0, 200) + "..." : text;
    return new IllegalArgumentException(
        "invalid JSON: " + problem + " at character " + at + " in: " + shown);
  }
}
