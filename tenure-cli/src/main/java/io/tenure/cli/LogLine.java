package io.tenure.cli;

import io.tenure.LogKeys;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * One log event with everything a line shows; absent node fields are left out of the line.
 *
 * @param time when it was logged
 * @param level its level
 * @param node the node's name, if this process runs a node
 * @param nodeId the node's current incarnation id, once it is built
 * @param epoch the leader epoch this node holds or held last, once it has led
 * @param logger the logger's name, usually a class name
 * @param thread the logging thread's name
 * @param message the message with its arguments filled in
 * @param error the throwable logged with it, if any
 * @param work what the thread works on, from the runtime's MDC keys ({@code io.tenure.LogKeys}):
 *     {@code agent}, {@code agentEpoch}, {@code queue}, {@code messageId}, in that order, the
 *     absent ones left out
 */
record LogLine(
    Instant time,
    Level level,
    @Nullable String node,
    @Nullable String nodeId,
    @Nullable Long epoch,
    String logger,
    String thread,
    String message,
    @Nullable Throwable error,
    Map<String, String> work) {

  /** The MDC keys a line shows, by the field name it shows them under. */
  private static final Map<String, String> WORK_KEYS = workKeys();

  LogLine {
    work = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(work)); // keeps the order
  }

  /** A line with no work fields. */
  LogLine(
      Instant time,
      Level level,
      @Nullable String node,
      @Nullable String nodeId,
      @Nullable Long epoch,
      String logger,
      String thread,
      String message,
      @Nullable Throwable error) {
    this(time, level, node, nodeId, epoch, logger, thread, message, error, Map.of());
  }

  private static Map<String, String> workKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("agent", LogKeys.AGENT);
    keys.put("queue", LogKeys.QUEUE);
    keys.put("messageId", LogKeys.MESSAGE_ID);
    return keys;
  }

  /**
   * The runtime's MDC keys of the current thread as line fields; the epoch shows as {@code
   * agentEpoch}, and only beside an agent (the line's own {@code epoch} is the leader's).
   */
  static Map<String, String> currentWork() {
    Map<String, String> work = new LinkedHashMap<>();
    String agent = MDC.get(LogKeys.AGENT);
    if (agent != null) {
      work.put("agent", agent);
      String epoch = MDC.get(LogKeys.EPOCH);
      if (epoch != null) {
        work.put("agentEpoch", epoch);
      }
    }
    for (Map.Entry<String, String> key : WORK_KEYS.entrySet()) {
      String value = MDC.get(key.getValue());
      if (value != null && !key.getKey().equals("agent")) {
        work.put(key.getKey(), value);
      }
    }
    return work;
  }

  /** An event of the current thread, now, in the node context of this process. */
  static LogLine now(Level level, String logger, String message, @Nullable Throwable error) {
    return new LogLine(
        Instant.now(),
        level,
        LogContext.name(),
        LogContext.nodeId(),
        LogContext.epoch(),
        logger,
        threadName(Thread.currentThread()),
        message,
        error,
        currentWork());
  }

  /**
   * Virtual threads usually have no name; their id still tells one agent's lines from another's.
   */
  private static String threadName(Thread thread) {
    String name = thread.getName();
    if (!name.isEmpty()) {
      return name;
    }
    return (thread.isVirtual() ? "virtual-" : "thread-") + thread.threadId();
  }
}
