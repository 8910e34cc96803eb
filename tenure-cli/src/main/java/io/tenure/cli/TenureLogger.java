package io.tenure.cli;

import java.io.Serial;
import org.jspecify.annotations.Nullable;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * Writes each enabled event as one {@link LogFormat} line on stderr, with the node context of this
 * process. The level check is two volatile reads while the settings stay the same.
 */
final class TenureLogger extends AbstractLogger {
  @Serial private static final long serialVersionUID = 1L;

  /** The threshold worked out for one {@link LogLevels}, so a check is not a prefix search. */
  private record Threshold(LogLevels levels, int value) {}

  private transient volatile @Nullable Threshold threshold;

  TenureLogger(String name) {
    this.name = name;
  }

  private boolean enabled(Level level) {
    LogLevels current = Logging.levels();
    Threshold known = threshold;
    if (known == null || known.levels() != current) {
      known = new Threshold(current, current.threshold(name));
      threshold = known;
    }
    return level.toInt() >= known.value();
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level,
      @Nullable Marker marker,
      @Nullable String pattern,
      Object @Nullable [] arguments,
      @Nullable Throwable error) {
    String message =
        arguments == null || arguments.length == 0
            ? String.valueOf(pattern)
            : MessageFormatter.basicArrayFormat(pattern, arguments);
    String line =
        Logging.format().render(LogLine.now(level, name, message, error), Logging.stackTraces());
    // One println per event, stack trace included: PrintStream locks per call, so lines never
    // interleave.
    System.err.println(line);
  }

  @Override
  protected @Nullable String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  public boolean isTraceEnabled() {
    return enabled(Level.TRACE);
  }

  @Override
  public boolean isTraceEnabled(Marker marker) {
    return enabled(Level.TRACE);
  }

  @Override
  public boolean isDebugEnabled() {
    return enabled(Level.DEBUG);
  }

  @Override
  public boolean isDebugEnabled(Marker marker) {
    return enabled(Level.DEBUG);
  }

  @Override
  public boolean isInfoEnabled() {
    return enabled(Level.INFO);
  }

  @Override
  public boolean isInfoEnabled(Marker marker) {
    return enabled(Level.INFO);
  }

  @Override
  public boolean isWarnEnabled() {
    return enabled(Level.WARN);
  }

  @Override
  public boolean isWarnEnabled(Marker marker) {
    return enabled(Level.WARN);
  }

  @Override
  public boolean isErrorEnabled() {
    return enabled(Level.ERROR);
  }

  @Override
  public boolean isErrorEnabled(Marker marker) {
    return enabled(Level.ERROR);
  }
}
