package io.tenure.cli;

import io.tenure.server.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How a {@link LogLine} is written: one line per event, so that grep and log shippers see whole
 * events. Both formats carry the same fields in the same order.
 */
enum LogFormat {
  /**
   * {@code key=value} pairs after the time and level. A value is quoted when it is empty or holds a
   * space, a quote, {@code =}, a backslash or a control character; inside quotes {@code "} and
   * {@code \} are escaped and line breaks written as {@code \n}, so an event stays on one line. A
   * stack trace, when asked for, follows on its own lines.
   */
  LOGFMT {
    @Override
    String render(LogLine line, boolean stackTraces) {
      StringBuilder text = new StringBuilder(160);
      text.append(TIME.format(line.time())).append(' ').append(line.level());
      fields(line)
          .forEach(
              (key, value) -> {
                if (!key.equals("time") && !key.equals("level") && !key.equals("stack")) {
                  text.append(' ').append(key).append('=').append(value(String.valueOf(value)));
                }
              });
      if (stackTraces && line.error() != null) {
        text.append(System.lineSeparator()).append(stackTrace(line.error()));
      }
      return text.toString();
    }
  },

  /** One JSON object per line; the stack trace, when asked for, is the {@code stack} field. */
  JSON {
    @Override
    String render(LogLine line, boolean stackTraces) {
      Map<String, Object> fields = fields(line);
      if (stackTraces && line.error() != null) {
        fields.put("stack", stackTrace(line.error()));
      }
      return Json.write(fields);
    }
  };

  // Fixed width (always milliseconds), so lines sort and align; Instant.toString drops zeros.
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /**
   * @param line the event
   * @param stackTraces whether a throwable's stack trace is written too, not only its toString
   * @return the event as text, without a final line break
   */
  abstract String render(LogLine line, boolean stackTraces);

  /** The fields in line order, absent ones left out. */
  private static Map<String, Object> fields(LogLine line) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("time", TIME.format(line.time()));
    fields.put("level", line.level().name());
    putIfPresent(fields, "node", line.node());
    putIfPresent(fields, "nodeId", line.nodeId());
    putIfPresent(fields, "epoch", line.epoch());
    fields.putAll(line.work());
    fields.put("logger", line.logger());
    fields.put("thread", line.thread());
    fields.put("msg", line.message());
    if (line.error() != null) {
      fields.put("error", line.error().toString());
    }
    return fields;
  }

  private static void putIfPresent(Map<String, Object> fields, String key, @Nullable Object value) {
    if (value != null) {
      fields.put(key, value);
    }
  }

  /** A logfmt value: bare when unambiguous, otherwise quoted and escaped. */
  static String value(String raw) {
    if (!raw.isEmpty() && raw.chars().noneMatch(LogFormat::needsQuotes)) {
      return raw;
    }
    StringBuilder quoted = new StringBuilder(raw.length() + 8).append('"');
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> quoted.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return quoted.append('"').toString();
  }

  private static boolean needsQuotes(int c) {
    return c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7f;
  }

  private static String stackTrace(Throwable error) {
    StringWriter trace = new StringWriter();
    error.printStackTrace(new PrintWriter(trace));
    return trace.toString().stripTrailing();
  }

  /** Reads {@code --log-format}: {@code logfmt} or {@code json}, in any case. */
  static final class Converter implements ITypeConverter<LogFormat> {
    @Override
    public LogFormat convert(String value) {
      try {
        return LogFormat.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a log format; use logfmt or json");
      }
    }
  }
}
