package io.tenure.testing;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * tenure-core's SLF4J binding in tests (found through {@code META-INF/services}): it keeps the
 * INFO, WARN and ERROR lines logged while a {@link Recording} is open, so that a test can read what
 * the runtime logged. With no recording open it drops every line, as the no-op binding would.
 */
public final class CapturedLogs implements SLF4JServiceProvider {
  private static final List<Recording> RECORDINGS = new CopyOnWriteArrayList<>();

  private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory loggerFactory =
      name -> loggers.computeIfAbsent(name, CapturingLogger::new);
  private final IMarkerFactory markerFactory = new BasicMarkerFactory();
  private final MDCAdapter mdcAdapter = new BasicMDCAdapter();

  /** Called by {@link java.util.ServiceLoader}. */
  public CapturedLogs() {}

  /**
   * @return a recording of every line logged from now until it is closed
   */
  public static Recording record() {
    Recording recording = new Recording();
    RECORDINGS.add(recording);
    return recording;
  }

  /** One logged line. */
  public record Line(String logger, Level level, String message) {}

  /** The lines logged while it is open. */
  public static final class Recording implements AutoCloseable {
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private Recording() {}

    /**
     * @return the lines so far, oldest first
     */
    public List<Line> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void close() {
      RECORDINGS.remove(this);
    }
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggerFactory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markerFactory;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdcAdapter;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  private static final class CapturingLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    CapturingLogger(String name) {
      this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
      if (RECORDINGS.isEmpty()) {
        return;
      }
      Line line = new Line(name, level, MessageFormatter.basicArrayFormat(pattern, arguments));
      RECORDINGS.forEach(recording -> recording.lines.add(line));
    }
  }
}
