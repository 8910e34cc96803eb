package io.tenure.server;

import io.tenure.AgentAssignment;
import io.tenure.ClusterEvent;
import io.tenure.ConsumerStats;
import io.tenure.MessageStatus;
import io.tenure.NodeInfo;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.TenureNode;
import io.tenure.Ticker;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** The API's reads (docs/ADMIN-API.md#reads), from the store and, if any, the node. */
final class AdminReads {
  private final Store store;
  private final @Nullable TenureNode node;

  /** Per queue, the last sample of this node's handled count: (handled, nanoTime). */
  private final Map<String, long[]> lastHandled = new ConcurrentHashMap<>();

  private final Map<String, Double> rates = new ConcurrentHashMap<>();
  private final Peers peers;
  private final Ticker ticker;
  private final Map<String, String> knownNames = new ConcurrentHashMap<>();

  /** Enough for a long-lived fleet's restarts; past it the memory starts over. */
  private static final int MAX_KNOWN_NAMES = 10_000;

  AdminReads(Store store, @Nullable TenureNode node, Peers peers, Ticker ticker) {
    this.ticker = ticker;
    this.store = store;
    this.node = node;
    this.peers = peers;
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
        node == null
            ? null
            : Map.of(
                "nodeId",
                node.nodeId(),
                "name",
                node.settings().name(),
                "wakeups",
                wakeups(node.wakeStats())));
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

  /** {@code GET /api/schedules}: every schedule, by name (SPEC §10). */
  Map<String, Object> schedules() {
    return Map.of(
        "schedules", store.schedules().list(10_000).stream().map(ScheduleJson::of).toList());
  }

  /** {@code GET /api/locks}: every named lock, by name (SPEC §11). */
  Map<String, Object> locks() {
    return Map.of("locks", store.locks().list(10_000).stream().map(LockJson::of).toList());
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
      sampleRates(node);
      node.consumerStats()
          .forEach(c -> consumers.computeIfAbsent(c.queue(), q -> new ArrayList<>()).add(c));
      rates = this.rates;
    } else {
      rates = peers.clusterRates(store.membership().read(), authorization);
    }
    List<Map<String, Object>> queues = new ArrayList<>();
    Map<String, io.tenure.QueueControl> controls = new java.util.TreeMap<>();
    store.queues().controls().list().forEach(c -> controls.put(c.queue(), c));
    List<QueueStats> all = new ArrayList<>(store.queues().stats());
    // A paused or limited queue is shown even while it has no messages.
    controls.keySet().stream()
        .filter(q -> all.stream().noneMatch(st -> st.queue().equals(q)))
        .forEach(q -> all.add(new QueueStats(q, 0, 0, 0, 0, null)));
    all.sort(java.util.Comparator.comparing(QueueStats::queue));
    for (QueueStats stats : all) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", stats.queue());
      fields.put("pending", stats.pending());
      fields.put("inflight", stats.inflight());
      fields.put("dead", stats.dead());
      fields.put("done", stats.done());
      fields.put("cancelled", stats.cancelled());
      fields.put(
          "oldestPendingAgeMs",
          stats.oldestPendingAge() == null ? null : stats.oldestPendingAge().toMillis());
      fields.put("handledPerSecond", rates.get(stats.queue()));
      io.tenure.QueueControl control = controls.get(stats.queue());
      fields.put("paused", control != null && control.paused());
      fields.put(
          "limits",
          QueueControlJson.limits(
              control == null ? io.tenure.QueueLimits.none() : control.limits()));
      List<Map<String, Object>> own = new ArrayList<>();
      for (ConsumerStats consumer : consumers.getOrDefault(stats.queue(), List.of())) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("nodeId", node.nodeId());
        c.put("handled", consumer.handled());
        c.put("retried", consumer.retried());
        c.put("deadLettered", consumer.deadLettered());
        c.put("lostClaims", consumer.lostClaims());
        c.put("unwritten", consumer.unwritten());
        c.put("timedOut", consumer.timedOut());
        c.put("inflight", consumer.inflight());
        c.put("handlerSeconds", histogram(consumer.handlerDuration()));
        c.put("pickupSeconds", histogram(consumer.pickupLatency()));
        own.add(c);
      }
      fields.put("consumers", own);
      queues.add(fields);
    }
    return Map.of("queues", queues);
  }

  /**
   * A histogram as the metrics have it, in seconds: {@code count}, {@code sum} and, per upper
   * bound, the observations at most that long.
   */
  static Map<String, Object> histogram(io.tenure.DurationHistogram histogram) {
    List<Map<String, Object>> buckets = new ArrayList<>();
    for (int i = 0; i < histogram.bounds().size(); i++) {
      Map<String, Object> bucket = new LinkedHashMap<>();
      bucket.put("le", histogram.bounds().get(i).toNanos() / 1e9);
      bucket.put("count", histogram.counts().get(i));
      buckets.add(bucket);
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("count", histogram.count());
    fields.put("sum", histogram.sum().toNanos() / 1e9);
    fields.put("buckets", buckets);
    return fields;
  }

  /** Updates each queue's rate from this node's handled counts, at most once per half second. */
  private void sampleRates(TenureNode self) {
    long now = ticker.read();
    Map<String, Long> handled = new HashMap<>();
    self.consumerStats().forEach(c -> handled.merge(c.queue(), c.handled(), Long::sum));
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

  Map<String, Object> deadLetters(String queue, int limit) {
    List<Map<String, Object>> messages = new ArrayList<>();
    for (QueueMessage message : store.queues().list(MessageQuery.dead(queue, limit))) {
      messages.add(MessageJson.listed(message));
    }
    return Map.of("queue", queue, "messages", messages);
  }

  /**
   * A queue's messages in any status, in id order after {@code after}, filtered as the request's
   * parameters say ({@code status}, {@code key}, {@code group}, {@code errorContains}, {@code
   * olderThanMs}).
   *
   * @throws AdminException 400 naming a parameter that is malformed
   */
  Map<String, Object> messages(String queue, AdminRequest request, int limit) {
    MessageStatus status = null;
    String text = request.query().get("status");
    if (text != null) {
      try {
        status = MessageStatus.valueOf(text);
      } catch (IllegalArgumentException e) {
        throw AdminException.badRequest(
            "status must be one of "
                + java.util.Arrays.toString(MessageStatus.values())
                + ", got '"
                + text
                + "'");
      }
    }
    long after = request.intParameter("after", 0, 0, Integer.MAX_VALUE);
    int olderThanMs = request.intParameter("olderThanMs", -1, 0, Integer.MAX_VALUE);
    MessageQuery query;
    try {
      query =
          new MessageQuery(
              queue,
              status,
              blankToNull(request.query().get("key")),
              blankToNull(request.query().get("group")),
              blankToNull(request.query().get("errorContains")),
              olderThanMs < 0 ? null : java.time.Duration.ofMillis(olderThanMs),
              after,
              limit);
    } catch (IllegalArgumentException e) {
      throw AdminException.badRequest(e.getMessage());
    }
    List<Map<String, Object>> messages = new ArrayList<>();
    for (QueueMessage message : store.queues().list(query)) {
      messages.add(MessageJson.browsed(message));
    }
    return Map.of("queue", queue, "messages", messages);
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /** One message in any status, with its whole payload. */
  Map<String, Object> message(long id) {
    return MessageJson.shown(
        store.queues().find(id).orElseThrow(() -> AdminException.notFound("no message " + id)));
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

  private static Map<String, Object> wakeups(io.tenure.WakeStats stats) {
    return Map.of(
        "enabled",
        stats.enabled(),
        "sent",
        stats.sent(),
        "received",
        stats.received(),
        "dropped",
        stats.dropped(),
        "woken",
        stats.woken());
  }
}
