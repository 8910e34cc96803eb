package io.tenure.cli;

/**
 * Configures slf4j-simple through its system properties. They are read once, when the first logger
 * is created, so this must run before a store is opened; parsing the command line logs nothing.
 */
final class Logging {
  private static final String DEFAULT_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
  private static final String HIKARI_LEVEL = "org.slf4j.simpleLogger.log.com.zaxxer.hikari";
  private static final String TENURE_LEVEL = "org.slf4j.simpleLogger.log.io.tenure";

  private Logging() {}

  /**
   * Keeps the output to results and one-line errors. HikariCP is silenced entirely: it logs pool
   * start and stop at INFO and a failed connection at ERROR with a stack trace, and the command
   * already reports that failure on one line. A level set with {@code -D} by the user wins.
   */
  static void quiet() {
    setIfAbsent(DEFAULT_LEVEL, "warn");
    setIfAbsent(HIKARI_LEVEL, "off");
  }

  /** Shows what the store and the pool do, for {@code --verbose} and {@code TENURE_DEBUG=1}. */
  static void verbose() {
    System.setProperty(DEFAULT_LEVEL, "info");
    System.setProperty(HIKARI_LEVEL, "info");
    System.setProperty(TENURE_LEVEL, "debug");
  }

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }
}
