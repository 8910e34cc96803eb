package io.tenure.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for tests, so assertions read values rather than grep text. Numbers
 * come back as Long, objects as ordered maps, and anything malformed or trailing fails.
 */
final class MiniJson {
  private final String text;
  private int at;

  private MiniJson(String text) {
    this.text = text;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    MiniJson parser = new MiniJson(text.strip());
    Object value = parser.value();
    if (parser.at != parser.text.length()) {
      throw parser.error("trailing text");
    }
    if (!(value instanceof Map)) {
      throw parser.error("expected one object");
    }
    return (Map<String, Object>) value;
  }

  private Object value() {
    char c = peek();
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    expect('{');
    if (peek() == '}') {
      at++;
      return map;
    }
    do {
      String key = string();
      expect(':');
      if (map.put(key, value()) != null) {
        throw error("duplicate key " + key);
      }
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
    expect('"');
    StringBuilder out = new StringBuilder();
    for (char c = next(); c != '"'; c = next()) {
      if (c < 0x20) {
        throw error("raw control character in string");
      }
      out.append(c == '\\' ? escape() : c);
    }
    return out.toString();
  }

  private char escape() {
    char c = next();
    return switch (c) {
      case '"', '\\', '/' -> c;
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'u' -> {
        at += 4;
        yield (char) Integer.parseInt(text.substring(at - 4, at), 16);
      }
      default -> throw error("bad escape \\" + c);
    };
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private Long number() {
    int start = at;
    while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '-')) {
      at++;
    }
    if (start == at) {
      throw error("unexpected character");
    }
    return Long.parseLong(text.substring(start, at));
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected '" + c + "'");
    }
  }

  private char peek() {
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

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(problem + " at " + at + " in: " + text);
  }
}
