package io.tenure.cli;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;

/**
 * The lowest level each logger writes, set per logger-name prefix the way slf4j-simple does: the
 * longest dotted prefix with a level wins ({@code io.tenure} covers {@code io.tenure.jdbc.X}), else
 * the default. Immutable; {@link Logging} swaps in a new one when the command line asks.
 */
final class LogLevels {
  /** The user's own default level, as slf4j-simple named it, so existing scripts keep working. */
  static final String DEFAULT_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

  /** Followed by a logger-name prefix: the user's level for it. */
  static final String PREFIX_PROPERTY = "org.slf4j.simpleLogger.log.";

  private static final int OFF = Integer.MAX_VALUE;

  private final int defaultThreshold;
  private final Map<String, Integer> thresholds;

  private LogLevels(int defaultThreshold, Map<String, Integer> thresholds) {
    this.defaultThreshold = defaultThreshold;
    this.thresholds = Map.copyOf(thresholds);
  }

  /**
   * @param defaultLevel trace, debug, info, warn, error or off
   * @param prefixLevels level per logger-name prefix
   * @throws IllegalArgumentException naming an unknown level
   */
  static LogLevels of(String defaultLevel, Map<String, String> prefixLevels) {
    Map<String, Integer> thresholds = new HashMap<>();
    prefixLevels.forEach((prefix, level) -> thresholds.put(prefix, require(level)));
    return new LogLevels(require(defaultLevel), thresholds);
  }

  /**
   * These levels with the user's {@code -Dorg.slf4j.simpleLogger.*} properties on top: a level the
   * user set wins over the launcher's. An unknown level in a property is ignored, not fatal.
   */
  LogLevels overriddenBy(Properties properties) {
    int defaults = defaultThreshold;
    Map<String, Integer> merged = new HashMap<>(thresholds);
    for (String key : properties.stringPropertyNames()) {
      Integer threshold = parse(properties.getProperty(key));
      if (threshold == null) {
        continue;
      }
      if (key.equals(DEFAULT_PROPERTY)) {
        defaults = threshold;
      } else if (key.startsWith(PREFIX_PROPERTY) && key.length() > PREFIX_PROPERTY.length()) {
        merged.put(key.substring(PREFIX_PROPERTY.length()), threshold);
      }
    }
    return new LogLevels(defaults, merged);
  }

  /** Whether {@code logger} writes events of {@code level}. */
  boolean enabled(String logger, Level level) {
    return level.toInt() >= threshold(logger);
  }

  /** The lowest {@link Level#toInt()} the logger writes; above every level when it is off. */
  int threshold(String logger) {
    for (String prefix = logger; !prefix.isEmpty(); prefix = parent(prefix)) {
      Integer threshold = thresholds.get(prefix);
      if (threshold != null) {
        return threshold;
      }
    }
    return defaultThreshold;
  }

  private static String parent(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }

  private static int require(String level) {
    Integer threshold = parse(level);
    if (threshold == null) {
      throw new IllegalArgumentException(
          "unknown log level '" + level + "'; use trace, debug, info, warn, error or off");
    }
    return threshold;
  }

  private static @Nullable Integer parse(@Nullable String level) {
    if (level == null) {
      return null;
    }
    String name = level.strip().toUpperCase(Locale.ROOT);
    if (name.equals("OFF")) {
      return OFF;
    }
    for (Level known : Level.values()) {
      if (known.name().equals(name)) {
        return known.toInt();
      }
    }
    return null;
  }
}
