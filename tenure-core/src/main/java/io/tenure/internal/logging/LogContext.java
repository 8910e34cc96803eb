package io.tenure.internal.logging;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.MDC;

/**
 * The MDC keys of {@link io.tenure.LogKeys} as the runtime sets them. Threads and calls take the
 * context of whoever made them ({@link #inherit}) and add their own keys for as long as they run
 * ({@link #with}); the thread's earlier context is put back afterwards, so a pooled or virtual
 * thread never carries a key into work that is not Tenure's.
 */
public final class LogContext {
  private LogContext() {}

  /** A scope that puts the thread's earlier keys back when closed. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Adds {@code keysAndValues} (key, value, key, value…) to this thread's context until the scope
   * is closed; a null value removes its key for that time.
   */
  public static Scope with(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values come in pairs");
    }
    Map<String, String> before = MDC.getCopyOfContextMap();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (keysAndValues[i + 1] == null) {
        MDC.remove(keysAndValues[i]);
      } else {
        MDC.put(keysAndValues[i], keysAndValues[i + 1]);
      }
    }
    return () -> restore(before);
  }

  /**
   * Sets this thread's context to {@code keysAndValues} alone until the scope is closed: the
   * runtime's own threads start from the node's keys, never from what the application's thread that
   * started the node had (a request id there is not the runtime's).
   */
  public static Scope only(String... keysAndValues) {
    Map<String, String> before = MDC.getCopyOfContextMap();
    MDC.clear();
    Scope added = with(keysAndValues);
    return () -> {
      added.close();
      restore(before);
    };
  }

  /**
   * {@code work}, to run on another thread with the context this thread has now, and nothing else
   * of that thread's own.
   */
  public static Runnable inherit(Runnable work) {
    Map<String, String> captured = MDC.getCopyOfContextMap();
    return () -> {
      Map<String, String> before = MDC.getCopyOfContextMap();
      restore(captured);
      try {
        work.run();
      } finally {
        restore(before);
      }
    };
  }

  private static void restore(Map<String, String> context) {
    if (context == null || context.isEmpty()) {
      MDC.clear();
    } else {
      MDC.setContextMap(new HashMap<>(context));
    }
  }
}
