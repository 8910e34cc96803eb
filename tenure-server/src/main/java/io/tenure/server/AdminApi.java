package io.tenure.server;

import io.tenure.TenureNode;
import io.tenure.Ticker;
import io.tenure.spi.Store;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the route table's handlers serve from: the store, the node if any, the API's reads and
 * actions on them, and the server's meters. A server makes a new one when it is attached to its
 * node.
 */
record AdminApi(
    Store store,
    @Nullable TenureNode node,
    AdminReads reads,
    AdminActions actions,
    QueueControlActions controls,
    MessageActions messages,
    MetricsEndpoint metrics) {
  /** A message id: a JSON-safe positive long (ids stay below 2^53). */
  private static final Pattern ID = Pattern.compile("\\d{1,18}");

  static AdminApi of(Store store, @Nullable TenureNode node, MetricsEndpoint metrics) {
    Peers peers = new Peers(store);
    return new AdminApi(
        store,
        node,
        new AdminReads(store, node, peers, Ticker.system()),
        new AdminActions(store, node, peers),
        new QueueControlActions(store),
        new MessageActions(store),
        metrics);
  }

  /**
   * A message id from a path segment.
   *
   * @throws AdminException 400 naming what was sent, if it is not a whole number
   */
  static long id(String raw) {
    String text = URLDecoder.decode(raw, StandardCharsets.UTF_8);
    if (!ID.matcher(text).matches()) {
      String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
      throw AdminException.badRequest("a message id is a whole number, got '" + shown + "'");
    }
    return Long.parseLong(text);
  }

  /**
   * A queue named by a path segment.
   *
   * @throws AdminException 404 if the store has no such queue
   */
  String knownQueue(String raw) {
    String queue = URLDecoder.decode(raw, StandardCharsets.UTF_8);
    if (store.queues().stats().stream().noneMatch(s -> s.queue().equals(queue))) {
      throw AdminException.notFound("no queue '" + queue + "'; GET /api/queues lists them");
    }
    return queue;
  }
}
