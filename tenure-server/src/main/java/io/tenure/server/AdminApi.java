package io.tenure.server;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.ConsumerStats;
import io.tenure.MessageStatus;
import io.tenure.NodeInfo;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.TenureNode;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** The standard admin API paths (docs/ADMIN-API.md), read from the store and, if any, the node. */
final class AdminApi {
  private static final Pattern DEAD = Pattern.compile("/api/queues/([^/]+)/dead");
  private static final Pattern DEAD_ONE =
      Pattern.compile("/api/queues/([^/]+)/dead/([^/]+)/replay");
  private static final Pattern DEAD_ALL =
      Pattern.compile("/api/queues/([^/]+)/dead/(replay|purge)");
  private static final Pattern MESSAGE = Pattern.compile("/api/messages/([^/]+)");

  /** A message id: a JSON-safe positive long (ids stay below 2^53). */
  private static final Pattern ID = Pattern.compile("\\d{1,18}");

  private final Store store;
  private final @Nullable TenureNode node;

  /** Per queue, the last sample of this node's handled count: (handled, nanoTime). */
  private final Map<String, long[]> lastHandled = new ConcurrentHashMap<>();

  private final Map<String, Double> rates = new ConcurrentHashMap<>();
  private final Peers peers;
  private final Map<String, String> knownNames = new ConcurrentHashMap<>();

  /** Enough for a long-lived fleet's restarts; past it the memory starts over. */
  private static final int MAX_KNOWN_NAMES = 10_000;

  AdminApi(Store store, @Nullable TenureNode node) {
    this.store = store;
    this.node = node;
    this.peers = new Peers(store);
  }

  /**
   * @return the response for a standard path, or empty if the path is not one
   * @throws AdminException for bad input or a refused action
   */
  Optional<Object> handle(AdminRequest request) {
    String path = request.path();
    boolean get = request.method().equals("GET");
    if (get) {
      switch (path) {
        case "/api/cluster" -> {
          return Optional.of(cluster());
        }
        case "/api/agents" -> {
          return Optional.of(agents());
        }
        case "/api/queues" -> {
          return Optional.of(queues(request.authorization()));
        }
        case "/api/events" -> {
          return Optional.of(events(request.intParameter("limit", 100, 1, 10_000)));
        }
        default -> {}
      }
      Matcher dead = DEAD.matcher(path);
      if (dead.matches()) {
        return Optional.of(
            deadLetters(knownQueue(dead.group(1)), request.intParameter("limit", 50, 1, 10_000)));
      }
      Matcher message = MESSAGE.matcher(path);
      if (message.matches()) {
        long id = id(message.group(1));
        return Optional.of(
            MessageJson.shown(
                store
                    .queues()
                    .find(id)
                    .orElseThrow(() -> AdminException.notFound("no message " + id))));
      }
      return Optional.empty();
    }
    if (!request.method().equals("POST")) {
      return Optional.empty();
    }
    Matcher one = DEAD_ONE.matcher(path);
    if (one.matches()) {
      return Optional.of(replayOne(knownQueue(one.group(1)), id(one.group(2))));
    }
    Matcher all = DEAD_ALL.matcher(path);
    if (all.matches()) {
      String queue = knownQueue(all.group(1));
      MessageQuery filter = deadFilter(queue, request);
      boolean replay = all.group(2).equals("replay");
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
      return Optional.of(Map.of(replay ? "replayed" : "purged", total));
    }
    if (path.startsWith("/api/agents/")
        && (node == null || path.equals("/api/agents/rebalance") && !node.isLeader())) {
      // Agent actions need a node, and a rebalance the leader: a server that is neither asks the
      // leader.
      return Optional.of(peers.forwardToLeader(request, node == null ? null : node.nodeId()));
    }
    return switch (path) {
      case "/api/agents/pause" -> Optional.of(pause(request, true));
      case "/api/agents/resume" -> Optional.of(pause(request, false));
      case "/api/agents/pin" -> Optional.of(pin(request));
      case "/api/agents/rebalance" -> Optional.of(Map.of("rebalanced", requireNode().rebalance()));
      default -> Optional.empty();
    };
  }

  /** Whether {@code path} is a standard path at all (for 405 rather than 404 on a wrong method). */
  static boolean known(String path) {
    return path.equals("/api/cluster")
        || path.equals("/api/agents")
        || path.equals("/api/queues")
        || path.equals("/api/events")
        || path.startsWith("/api/agents/")
        || DEAD.matcher(path).matches()
        || DEAD_ONE.matcher(path).matches()
        || DEAD_ALL.matcher(path).matches()
        || MESSAGE.matcher(path).matches();
  }

  Map<String, Object> cluster() {
    MembershipView view = store.membership().read();
    Lease lease = store.leases().read();
    Map<String, String> names = names(view);
    Map<String, Integer> agentsPerNode = new HashMap<>();
    for (AgentAssignment assignment : store.agents().readAll()) {
      if (assignment.owner() != null) {
        agentsPerNode.merge(assignment.owner(), 1, Integer::sum);
      }
    }
    boolean leaseHeld = lease.holder() != null && lease.expiresAt().isAfter(lease.readAt());
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (NodeInfo info : view.nodes()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("nodeId", info.nodeId());
      fields.put("name", info.name());
      fields.put("address", info.address());
      fields.put("status", info.status());
      fields.put("capabilities", info.capabilities().stream().sorted().toList());
      fields.put("startedAt", info.startedAt());
      fields.put("heartbeatAt", info.heartbeatAt());
      fields.put(
          "heartbeatAgeMs",
          Math.max(0, Duration.between(info.heartbeatAt(), view.readAt()).toMillis()));
      fields.put("leader", leaseHeld && info.nodeId().equals(lease.holder()));
      fields.put("agents", agentsPerNode.getOrDefault(info.nodeId(), 0));
      nodes.add(fields);
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("now", view.readAt());
    result.put(
        "self",
        node == null ? null : Map.of("nodeId", node.nodeId(), "name", node.settings().name()));
    StoreDescription description = store.describe();
    result.put(
        "store",
        Map.of(
            "provider",
            description.provider(),
            "location",
            description.location(),
            "prefix",
            description.prefix().value()));
    if (leaseHeld) {
      Map<String, Object> leader = new LinkedHashMap<>();
      leader.put("nodeId", lease.holder());
      leader.put("name", names.get(lease.holder()));
      leader.put("epoch", lease.epoch());
      leader.put("expiresAt", lease.expiresAt());
      result.put("leader", leader);
    } else {
      result.put("leader", null);
    }
    result.put("nodes", nodes);
    return result;
  }

  Map<String, Object> agents() {
    Map<String, String> names = names(store.membership().read());
    List<Map<String, Object>> agents = new ArrayList<>();
    List<AgentAssignment> all = new ArrayList<>(store.agents().readAll());
    all.sort(Comparator.comparing(a -> a.uri().toString()));
    for (AgentAssignment assignment : all) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("uri", assignment.uri().toString());
      fields.put("family", assignment.uri().scheme());
      fields.put("owner", assignment.owner());
      fields.put("ownerName", assignment.owner() == null ? null : names.get(assignment.owner()));
      fields.put("target", assignment.target());
      fields.put("targetName", assignment.target() == null ? null : names.get(assignment.target()));
      fields.put("epoch", assignment.epoch());
      fields.put("paused", assignment.paused());
      fields.put("pinnedTo", assignment.pinnedTo());
      fields.put(
          "handoff", assignment.owner() != null && !assignment.owner().equals(assignment.target()));
      agents.add(fields);
    }
    return Map.of("agents", agents);
  }

  /**
   * @param authorization the caller's Authorization header, passed on when the rates are asked of
   *     the nodes (a server that is not a node)
   */
  Map<String, Object> queues(@Nullable String authorization) {
    Map<String, List<ConsumerStats>> consumers = new HashMap<>();
    Map<String, Double> rates;
    if (node != null) {
      sampleRates();
      node.consumerStats()
          .forEach(c -> consumers.computeIfAbsent(c.queue(), q -> new ArrayList<>()).add(c));
      rates = this.rates;
    } else {
      rates = peers.clusterRates(store.membership().read(), authorization);
    }
    List<Map<String, Object>> queues = new ArrayList<>();
    for (QueueStats stats : store.queues().stats()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", stats.queue());
      fields.put("pending", stats.pending());
      fields.put("inflight", stats.inflight());
      fields.put("dead", stats.dead());
      fields.put("done", stats.done());
      fields.put(
          "oldestPendingAgeMs",
          stats.oldestPendingAge() == null ? null : stats.oldestPendingAge().toMillis());
      fields.put("handledPerSecond", rates.get(stats.queue()));
      List<Map<String, Object>> own = new ArrayList<>();
      for (ConsumerStats consumer : consumers.getOrDefault(stats.queue(), List.of())) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("nodeId", node.nodeId());
        c.put("handled", consumer.handled());
        c.put("retried", consumer.retried());
        c.put("deadLettered", consumer.deadLettered());
        c.put("lostClaims", consumer.lostClaims());
        c.put("unwritten", consumer.unwritten());
        c.put("inflight", consumer.inflight());
        own.add(c);
      }
      fields.put("consumers", own);
      queues.add(fields);
    }
    return Map.of("queues", queues);
  }

  /** Updates each queue's rate from this node's handled counts, at most once per half second. */
  private void sampleRates() {
    long now = System.nanoTime();
    Map<String, Long> handled = new HashMap<>();
    requireNode().consumerStats().forEach(c -> handled.merge(c.queue(), c.handled(), Long::sum));
    handled.forEach(
        (queue, count) -> {
          long[] last = lastHandled.get(queue);
          if (last == null) {
            lastHandled.put(queue, new long[] {count, now});
          } else if (now - last[1] >= 500_000_000L) {
            rates.put(queue, Math.round((count - last[0]) * 1e10 / (now - last[1])) / 10.0);
            lastHandled.put(queue, new long[] {count, now});
          }
        });
  }

  Map<String, Object> events(int limit) {
    Map<String, String> names = names(store.membership().read());
    List<Map<String, Object>> events = new ArrayList<>();
    for (ClusterEvent event : store.events().recent(limit)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("id", event.id());
      fields.put("at", event.at());
      fields.put("kind", event.kind());
      fields.put("nodeId", event.nodeId());
      fields.put("nodeName", names.get(event.nodeId()));
      fields.put("epoch", event.epoch());
      fields.put("detail", event.detail());
      events.add(fields);
    }
    return Map.of("events", events);
  }

  private Map<String, Object> deadLetters(String queue, int limit) {
    List<Map<String, Object>> messages = new ArrayList<>();
    for (QueueMessage message : store.queues().list(MessageQuery.dead(queue, limit))) {
      messages.add(MessageJson.listed(message));
    }
    return Map.of("queue", queue, "messages", messages);
  }

  private Map<String, Object> replayOne(String queue, long id) {
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

  private Map<String, Object> pause(AdminRequest request, boolean paused) {
    TenureNode self = requireNode();
    AgentUri uri = knownAgent(request);
    if (paused) {
      self.pause(uri);
    } else {
      self.resume(uri);
    }
    return Map.of("uri", uri.toString(), "paused", paused);
  }

  private Map<String, Object> pin(AdminRequest request) {
    TenureNode self = requireNode();
    Map<String, Object> json = request.json();
    if (!json.containsKey("node")) {
      throw AdminException.badRequest("pin needs a 'node' field: a node name, or null to unpin");
    }
    AgentUri uri = knownAgent(request);
    String nodeName = request.string(json, "node");
    try {
      self.pin(uri, nodeName);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("uri", uri.toString());
    result.put("pinnedTo", nodeName);
    return result;
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

  /** A message id from a path: a whole number, else 400 naming what was sent. */
  private static long id(String raw) {
    String text = java.net.URLDecoder.decode(raw, StandardCharsets.UTF_8);
    if (!ID.matcher(text).matches()) {
      String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
      throw AdminException.badRequest("a message id is a whole number, got '" + shown + "'");
    }
    return Long.parseLong(text);
  }

  private String knownQueue(String name) {
    String queue = java.net.URLDecoder.decode(name, StandardCharsets.UTF_8);
    if (store.queues().stats().stream().noneMatch(s -> s.queue().equals(queue))) {
      throw AdminException.notFound("no queue '" + queue + "'; GET /api/queues lists them");
    }
    return queue;
  }

  private TenureNode requireNode() {
    if (node == null) {
      throw AdminException.conflict(
          "this server is not a node; send agent actions to a node's own address");
    }
    return node;
  }

  /**
   * Node names by incarnation id: the current members, and those this server saw before they left
   * (their rows are deleted, but the history still names them).
   */
  private Map<String, String> names(MembershipView view) {
    view.nodes().forEach(n -> knownNames.put(n.nodeId(), n.name()));
    if (knownNames.size() > MAX_KNOWN_NAMES) {
      knownNames.clear();
      view.nodes().forEach(n -> knownNames.put(n.nodeId(), n.name()));
    }
    return knownNames;
  }
}
