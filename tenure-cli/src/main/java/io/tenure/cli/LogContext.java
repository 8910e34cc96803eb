package io.tenure.cli;

import org.jspecify.annotations.Nullable;

/**
 * Who is logging: the node this process runs, read by every log line. One node per {@code tenure
 * node} process, so the holder is process-wide; volatile fields, because the node's own threads
 * write them (a promotion, a rejoin) while any thread logs. Nothing here touches the store.
 */
final class LogContext {
  private static volatile @Nullable String name;
  private static volatile @Nullable String nodeId;
  // 0 means none yet: epochs start at 1.
  private static volatile long epoch;

  private LogContext() {}

  /** The node's name, known from the command line before the store is opened. */
  static void name(String nodeName) {
    name = nodeName;
  }

  /** The node's incarnation id: once built, and again each time it is ejected and rejoins. */
  static void nodeId(String id) {
    nodeId = id;
  }

  /**
   * The epoch this node holds as leader. Kept after it steps down: the field then says which
   * leadership its lines follow, and the node learns no other epoch without asking the store.
   */
  static void epoch(long leaderEpoch) {
    epoch = leaderEpoch;
  }

  /** Forgets the node, for tests that run several commands in one JVM. */
  static void clear() {
    name = null;
    nodeId = null;
    epoch = 0;
  }

  static @Nullable String name() {
    return name;
  }

  static @Nullable String nodeId() {
    return nodeId;
  }

  static @Nullable Long epoch() {
    long current = epoch;
    return current > 0 ? current : null;
  }
}
