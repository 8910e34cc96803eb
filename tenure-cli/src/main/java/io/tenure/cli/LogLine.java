package io.tenure.cli;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
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
    @Nullable Throwable error) {

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
        error);
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
