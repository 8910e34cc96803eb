package io.tenure.server;

import io.tenure.Queue;
import io.tenure.QueueLimits;
import io.tenure.spi.Store;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A queue's pause and limits over the API (SPEC §12.1, §12.2), on the store: any node may, and
 * every node's next claim obeys. A queue need not have messages yet to be paused or limited.
 */
final class QueueControlActions {
  private final Store store;

  QueueControlActions(Store store) {
    this.store = store;
  }

  /**
   * @return the queue's control and its use
   */
  Map<String, @Nullable Object> read(String rawName) {
    return QueueControlJson.of(store.queues().controls().read(name(rawName)));
  }

  /**
   * @return {@code {"queue", "paused", "changed"}}
   */
  Map<String, Object> pause(String rawName, boolean paused) {
    String queue = name(rawName);
    boolean changed = store.queues().controls().pause(queue, paused);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("queue", queue);
    result.put("paused", paused);
    result.put("changed", changed);
    return result;
  }

  /**
   * Replaces the queue's limits with the body's.
   *
   * @return the queue's control as stored after the change
   * @throws AdminException 400 naming what is wrong with the body (nothing changed)
   */
  Map<String, @Nullable Object> limit(String rawName, AdminRequest request) {
    String queue = name(rawName);
    QueueLimits limits;
    try {
      limits = QueueControlJson.parseLimits(request.json());
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    store.queues().controls().limit(queue, limits);
    return QueueControlJson.of(store.queues().controls().read(queue));
  }

  private static String name(String raw) {
    String queue = URLDecoder.decode(raw, StandardCharsets.UTF_8);
    try {
      return Queue.checkName(queue);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
  }
}
