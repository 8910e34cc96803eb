package io.tenure.cli;

import io.tenure.AgentAssignment;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.Lease;
import io.tenure.spi.MembershipView;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/**
 * {@code tenure nodes}: the cluster's members and its leader, read from the store the way {@code
 * GET /api/cluster} reads them, so it works with no node running.
 */
@Command(
    name = "nodes",
    description = {
      "Show the cluster's members and its leader.",
      "Every member's name, status, heartbeat age, agents, address, start and incarnation id, and"
          + " which node leads at which epoch.",
      "Read from the store like GET /api/cluster, so it needs no running node. Ages are by the"
          + " database clock. A node that left gracefully has no row; one the leader declared"
          + " DEAD keeps its row until cleanup."
    })
final class NodesCommand extends StoreCommand {
  @Override
  void checkArguments() {
    // Only the shared options, which picocli has already checked.
  }

  @Override
  int run(Store store, Output output) {
    MembershipView view = store.membership().read();
    Lease lease = store.leases().read();
    Map<String, Integer> agents = agentsPerNode(store);
    if (output.json()) {
      output.object(json(store.describe(), view, lease, agents));
    } else {
      print(view, lease, agents, output);
    }
    return ExitCodes.OK;
  }

  private static Map<String, Integer> agentsPerNode(Store store) {
    Map<String, Integer> counts = new HashMap<>();
    for (AgentAssignment assignment : store.agents().readAll()) {
      if (assignment.owner() != null) {
        counts.merge(assignment.owner(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /**
   * The shape of {@code GET /api/cluster} (docs/ADMIN-API.md), without the serving node's {@code
   * self}.
   */
  private static Map<String, @Nullable Object> json(
      StoreDescription store, MembershipView view, Lease lease, Map<String, Integer> agents) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("now", view.readAt());
    fields.put(
        "store",
        Map.of(
            "provider",
            store.provider(),
            "location",
            store.location(),
            "prefix",
            store.prefix().value()));
    fields.put("leader", lease.live() && lease.holder() != null ? leader(lease, view) : null);
    fields.put("epoch", lease.epoch());
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (NodeInfo info : view.nodes()) {
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("nodeId", info.nodeId());
      node.put("name", info.name());
      node.put("address", info.address());
      node.put("status", info.status());
      node.put("capabilities", info.capabilities().stream().sorted().toList());
      node.put("startedAt", info.startedAt());
      node.put("heartbeatAt", info.heartbeatAt());
      node.put("heartbeatAgeMs", age(info.heartbeatAt(), view).toMillis());
      node.put("leader", lease.heldBy(info.nodeId()));
      node.put("agents", agents.getOrDefault(info.nodeId(), 0));
      nodes.add(node);
    }
    fields.put("nodes", nodes);
    return fields;
  }

  private static Map<String, @Nullable Object> leader(Lease lease, MembershipView view) {
    Map<String, @Nullable Object> leader = new LinkedHashMap<>();
    leader.put("nodeId", lease.holder());
    leader.put(
        "name",
        view.nodes().stream()
            .filter(n -> n.nodeId().equals(lease.holder()))
            .map(NodeInfo::name)
            .findFirst()
            .orElse(null));
    leader.put("epoch", lease.epoch());
    leader.put("expiresAt", lease.expiresAt());
    return leader;
  }

  private static void print(
      MembershipView view, Lease lease, Map<String, Integer> agents, Output output) {
    output.line(leaderLine(view, lease));
    if (view.nodes().isEmpty()) {
      output.line("no nodes: none is running on this store and prefix (or all left).");
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (NodeInfo info : view.nodes()) {
      rows.add(
          List.of(
              info.name(),
              info.status().toString(),
              lease.heldBy(info.nodeId()) ? "leader, epoch " + lease.epoch() : "-",
              QueueStatsCommand.age(age(info.heartbeatAt(), view)) + " ago",
              String.valueOf(agents.getOrDefault(info.nodeId(), 0)),
              info.address().isEmpty() ? "-" : info.address(),
              QueueStatsCommand.age(age(info.startedAt(), view)) + " ago",
              info.nodeId()));
    }
    output.table(
        List.of(
            "NAME", "STATUS", "LEADER", "HEARTBEAT", "AGENTS", "ADDRESS", "STARTED", "INCARNATION"),
        rows);
    output.line(summary(view));
  }

  private static String leaderLine(MembershipView view, Lease lease) {
    if (lease.holder() == null) {
      return "leader: none yet (no node has ever held the lease)";
    }
    String holder =
        view.nodes().stream()
            .filter(n -> n.nodeId().equals(lease.holder()))
            .map(n -> n.name() + " (" + n.nodeId() + ")")
            .findFirst()
            .orElse(lease.holder() + " (no membership row)");
    if (!lease.live()) {
      return "leader: none; the lease of "
          + holder
          + " at epoch "
          + lease.epoch()
          + " expired "
          + QueueStatsCommand.age(Duration.between(lease.expiresAt(), lease.readAt()))
          + " ago";
    }
    return "leader: "
        + holder
        + " at epoch "
        + lease.epoch()
        + ", its lease expires in "
        + QueueStatsCommand.age(Duration.between(lease.readAt(), lease.expiresAt()))
        + " unless renewed";
  }

  /** e.g. {@code 3 nodes: 2 ACTIVE, 1 DEAD.} */
  private static String summary(MembershipView view) {
    Map<NodeStatus, Long> byStatus = new EnumMap<>(NodeStatus.class);
    view.nodes().forEach(n -> byStatus.merge(n.status(), 1L, Long::sum));
    String counts =
        byStatus.entrySet().stream()
            .map(e -> e.getValue() + " " + e.getKey())
            .collect(Collectors.joining(", "));
    int n = view.nodes().size();
    return n + (n == 1 ? " node: " : " nodes: ") + counts + ".";
  }

  /** How long before the read {@code at} was; never negative (clocks of one database agree). */
  private static Duration age(Instant at, MembershipView view) {
    Duration age = Duration.between(at, view.readAt());
    return age.isNegative() ? Duration.ZERO : age;
  }
}
