package io.tenure.cli;

import java.util.Map;

/**
 * The launcher's logging settings, read by {@link TenureLogger} on every event: levels per logger,
 * the line format and whether stack traces are written. Unlike slf4j-simple's system properties,
 * which are read once, these apply at once, so a logger created before the command line is parsed
 * still follows {@code --verbose}.
 */
final class Logging {
  private static final LogLevels QUIET = LogLevels.of("warn", Map.of("com.zaxxer.hikari", "off"));
  private static final LogLevels VERBOSE =
      LogLevels.of("info", Map.of("com.zaxxer.hikari", "info", "io.tenure", "debug"));

  private static volatile LogLevels levels = QUIET.overriddenBy(System.getProperties());
  private static volatile LogFormat format = LogFormat.LOGFMT;
  private static volatile boolean stackTraces;

  private Logging() {}

  /**
   * Keeps the output to results and one-line errors. HikariCP is silenced entirely: it logs pool
   * start and stop at INFO and a failed connection at ERROR with a stack trace, and the command
   * already reports that failure on one line. A level set with {@code -D} by the user wins.
   */
  static void quiet() {
    levels = QUIET.overriddenBy(System.getProperties());
    stackTraces = false;
  }

  /**
   * Shows what the store and the pool do, with stack traces, for {@code --verbose} and {@code
   * TENURE_DEBUG=1}. A level set with {@code -D} by the user still wins.
   */
  static void verbose() {
    levels = VERBOSE.overriddenBy(System.getProperties());
    stackTraces = true;
  }

  /** Sets how every following line is written ({@code tenure node --log-format}). */
  static void format(LogFormat lineFormat) {
    format = lineFormat;
  }

  static LogLevels levels() {
    return levels;
  }

  static LogFormat format() {
    return format;
  }

  static boolean stackTraces() {
    return stackTraces;
  }
}
