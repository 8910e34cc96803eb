package io.tenure.server;

import io.tenure.AgentUri;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.TenureNode;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The API's actions (docs/ADMIN-API.md#actions-post): dead-letter replays and purges on the store,
 * agent actions on the node, or forwarded to the leader by a server that cannot run them itself.
 */
final class AdminActions {
  private final Store store;
  private final @Nullable TenureNode node;
  private final Peers peers;

  AdminActions(Store store, @Nullable TenureNode node, Peers peers) {
    this.store = store;
    this.node = node;
    this.peers = peers;
  }

  /**
   * Pauses, resumes, triggers or deletes one schedule (SPEC §10), on the store: any node may.
   *
   * @param action {@code pause}, {@code resume}, {@code trigger} or {@code delete}
   * @return {@code {"schedule", "changed"}}, and the new message's {@code id} for a trigger
   * @throws AdminException 404 if no schedule has the name
   */
  Map<String, Object> schedule(String rawName, String action) {
    String name = java.net.URLDecoder.decode(rawName, java.nio.charset.StandardCharsets.UTF_8);
    try {
      io.tenure.Schedule.checkName(name);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    if (store.schedules().read(name).isEmpty()) {
      throw AdminException.notFound("no schedule '" + name + "'; GET /api/schedules lists them");
    }
    // Over this server's store, which it does not own: the Tenure is not closed here.
    io.tenure.Schedules schedules = io.tenure.Tenure.on(store, "admin-api").schedules();
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("schedule", name);
    switch (action) {
      case "pause" -> result.put("changed", schedules.pause(name));
      case "resume" -> result.put("changed", schedules.resume(name));
      case "delete" -> result.put("changed", schedules.delete(name));
      case "trigger" -> {
        result.put("changed", true);
        result.put("id", schedules.trigger(name));
      }
      default -> throw new IllegalStateException("no schedule action " + action + ": a route bug");
    }
    return result;
  }

  /**
   * Replays or purges every dead letter of {@code queue} matching the request's filter.
   *
   * @return {@code {"replayed": N}} or {@code {"purged": N}}
   */
  Map<String, Object> replayOrPurgeAll(String queue, AdminRequest request, boolean replay) {
    MessageQuery filter = deadFilter(queue, request);
    // One call changes at most the query's limit: go on until a call changes fewer. A replay is
    // bounded by the dead letters there were at the start, so a message that dies again meanwhile
    // cannot keep it going.
    long before =
        store.queues().stats().stream()
            .filter(st -> st.queue().equals(queue))
            .mapToLong(st -> st.dead())
            .sum();
    long total = 0;
    int changed;
    do {
      changed = replay ? store.queues().replay(filter) : store.queues().purge(filter);
      total += changed;
    } while (changed == filter.limit() && total < before);
    return Map.of(replay ? "replayed" : "purged", total);
  }

  /**
   * Pauses or resumes an agent on this node; a server that is not a node asks the leader.
   *
   * @return {@code {"uri": U, "paused": P}}
   */
  Object pause(AdminRequest request, boolean paused) {
    if (node == null) {
      return forward(request);
    }
    AgentUri uri = knownAgent(request);
    if (paused) {
      node.pause(uri);
    } else {
      node.resume(uri);
    }
    return Map.of("uri", uri.toString(), "paused", paused);
  }

  /**
   * Pins an agent to a node by name, or unpins it; a server that is not a node asks the leader.
   *
   * @return {@code {"uri": U, "pinnedTo": NAME}}
   */
  Object pin(AdminRequest request) {
    if (node == null) {
      return forward(request);
    }
    Map<String, Object> json = request.json();
    if (!json.containsKey("node")) {
      throw AdminException.badRequest("pin needs a 'node' field: a node name, or null to unpin");
    }
    AgentUri uri = knownAgent(request);
    String nodeName = request.string(json, "node");
    try {
      node.pin(uri, nodeName);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("uri", uri.toString());
    result.put("pinnedTo", nodeName);
    return result;
  }

  /**
   * Rebalances on the leader: this node if it leads, else the leader it forwards to.
   *
   * @return {@code {"rebalanced": true}}
   */
  Object rebalance(AdminRequest request) {
    if (node == null || !node.isLeader()) {
      return forward(request);
    }
    return Map.of("rebalanced", node.rebalance());
  }

  private Object forward(AdminRequest request) {
    return peers.forwardToLeader(request, node == null ? null : node.nodeId());
  }

  /** Replays one dead letter of {@code queue}. */
  Map<String, Object> replayOne(String queue, long id) {
    QueueMessage message =
        store
            .queues()
            .find(id)
            .filter(m -> m.queue().equals(queue))
            .orElseThrow(
                () -> AdminException.notFound("no message " + id + " in queue '" + queue + "'"));
    if (message.status() != MessageStatus.DEAD || !store.queues().replay(id)) {
      throw AdminException.conflict(
          "message "
              + id
              + " is "
              + message.status()
              + ", not a dead letter; only dead letters can be replayed");
    }
    return Map.of("replayed", 1);
  }

  private MessageQuery deadFilter(String queue, AdminRequest request) {
    Map<String, Object> json = request.json();
    for (String field : json.keySet()) {
      if (!field.equals("key") && !field.equals("errorContains")) {
        throw AdminException.badRequest(
            "unknown filter field '" + field + "'; use key and errorContains");
      }
    }
    return new MessageQuery(
        queue,
        MessageStatus.DEAD,
        request.string(json, "key"),
        request.string(json, "errorContains"),
        null,
        0,
        10_000);
  }

  private AgentUri knownAgent(AdminRequest request) {
    String text = request.string(request.json(), "uri");
    if (text == null) {
      throw AdminException.badRequest("the body must name the agent: {\"uri\": \"family://name\"}");
    }
    AgentUri uri;
    try {
      uri = AgentUri.parse(text);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    if (store.agents().read(uri).isEmpty()) {
      throw AdminException.notFound("no agent " + uri + "; GET /api/agents lists them");
    }
    return uri;
  }
}
