package io.tenure.cli;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.NodeInfo;
import io.tenure.spi.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tenure agents}: who runs what. Every assignment row with its owner and target node, the
 * hand-offs in flight (owner and target differ, SPEC §5.3), and what operators paused or pinned.
 */
@Command(
    name = "agents",
    description = {
      "Show which node runs each agent, and the hand-offs in flight.",
      "A hand-off is in flight while an agent's owner and target differ: the owner is"
          + " stopping it, or the target has not claimed it yet.",
      "Text groups the agents by owner node; --json lists them ordered by URI."
    })
final class AgentsCommand extends StoreCommand {
  @Option(
      names = "--node",
      paramLabel = "NAME",
      description = "Only agents this node owns or is the target of (a node name or id).")
  @Nullable String node;

  @Option(
      names = "--family",
      paramLabel = "F",
      description = "Only agents of this family: the URI scheme, e.g. projection.")
  @Nullable String family;

  @Override
  void checkArguments() {
    if (node != null && node.isBlank()) {
      throw new IllegalArgumentException("--node must name a node, got '" + node + "'");
    }
    if (family != null) {
      new AgentUri(family, "x"); // the family is a URI scheme: the same rule, the same message
    }
  }

  @Override
  int run(Store store, Output output) {
    Map<String, NodeInfo> nodes =
        store.membership().read().nodes().stream()
            .collect(
                Collectors.toMap(
                    NodeInfo::nodeId, Function.identity(), (a, b) -> a, LinkedHashMap::new));
    List<AgentAssignment> agents =
        store.agents().readAll().stream().filter(a -> selected(a, nodes)).toList();
    AgentsSummary summary = AgentsSummary.of(agents);
    if (output.json()) {
      output.object(json(agents, nodes, summary));
    } else {
      print(agents, nodes, summary, output);
    }
    return ExitCodes.OK;
  }

  private boolean selected(AgentAssignment agent, Map<String, NodeInfo> nodes) {
    boolean familyMatches = family == null || agent.uri().scheme().equals(family);
    return familyMatches
        && (node == null || isNode(agent.owner(), nodes) || isNode(agent.target(), nodes));
  }

  private boolean isNode(@Nullable String nodeId, Map<String, NodeInfo> nodes) {
    return nodeId != null && (nodeId.equals(node) || Objects.equals(name(nodeId, nodes), node));
  }

  /** The name of a node incarnation, or null if it has no row any more (it left or died). */
  private static @Nullable String name(@Nullable String nodeId, Map<String, NodeInfo> nodes) {
    NodeInfo info = nodeId == null ? null : nodes.get(nodeId);
    return info == null ? null : info.name();
  }

  static boolean handoff(AgentAssignment agent) {
    return !Objects.equals(agent.owner(), agent.target());
  }

  private static Map<String, Object> json(
      List<AgentAssignment> agents, Map<String, NodeInfo> nodes, AgentsSummary summary) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("agents", agents.stream().map(agent -> json(agent, nodes)).toList());
    fields.put("summary", summary.json());
    return fields;
  }

  /** The shape of {@code GET /api/agents} (docs/ADMIN-API.md), so both speak one vocabulary. */
  private static Map<String, @Nullable Object> json(
      AgentAssignment agent, Map<String, NodeInfo> nodes) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("uri", agent.uri().toString());
    fields.put("family", agent.uri().scheme());
    fields.put("owner", agent.owner());
    fields.put("ownerName", name(agent.owner(), nodes));
    fields.put("target", agent.target());
    fields.put("targetName", name(agent.target(), nodes));
    fields.put("epoch", agent.epoch());
    fields.put("paused", agent.paused());
    fields.put("pinnedTo", agent.pinnedTo());
    fields.put("handoff", handoff(agent));
    return fields;
  }

  private static void print(
      List<AgentAssignment> agents,
      Map<String, NodeInfo> nodes,
      AgentsSummary summary,
      Output output) {
    Map<@Nullable String, List<AgentAssignment>> byOwner = groupByOwner(agents, nodes);
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("URI", "EPOCH", "TARGET", "NOTES"));
    byOwner.values().forEach(group -> group.forEach(agent -> rows.add(row(agent, nodes))));
    List<String> lines = Output.aligned(rows);
    if (!agents.isEmpty()) {
      output.line("  " + lines.get(0));
    }
    int next = 1;
    for (Map.Entry<@Nullable String, List<AgentAssignment>> group : byOwner.entrySet()) {
      output.line(heading(group.getKey(), nodes, group.getValue().size()));
      for (int i = 0; i < group.getValue().size(); i++) {
        output.line("  " + lines.get(next++));
      }
    }
    output.line(summary.sentence());
  }

  /** Owners in join order, then owners with no node row, then the agents nobody owns. */
  private static Map<@Nullable String, List<AgentAssignment>> groupByOwner(
      List<AgentAssignment> agents, Map<String, NodeInfo> nodes) {
    Map<@Nullable String, List<AgentAssignment>> groups = new LinkedHashMap<>();
    nodes.keySet().forEach(id -> groups.put(id, new ArrayList<>()));
    agents.stream()
        .filter(a -> a.owner() != null && !nodes.containsKey(a.owner()))
        .forEach(a -> groups.put(a.owner(), new ArrayList<>()));
    groups.put(null, new ArrayList<>());
    agents.forEach(agent -> groups.get(agent.owner()).add(agent));
    groups.values().removeIf(List::isEmpty);
    return groups;
  }

  private static String heading(@Nullable String owner, Map<String, NodeInfo> nodes, int count) {
    String agents = count + (count == 1 ? " agent" : " agents");
    if (owner == null) {
      return "(no owner): " + agents;
    }
    NodeInfo info = nodes.get(owner);
    return info == null
        ? "node " + owner + " (no membership row: it left or died): " + agents
        : info.name() + " (" + owner + ", " + info.status() + "): " + agents;
  }

  private static List<String> row(AgentAssignment agent, Map<String, NodeInfo> nodes) {
    List<String> notes = new ArrayList<>();
    if (handoff(agent)) {
      notes.add(agent.target() == null ? "hand-off: stopping, no target" : "hand-off in flight");
    }
    if (agent.paused()) {
      notes.add("paused");
    }
    if (agent.pinnedTo() != null) {
      notes.add("pinned to " + agent.pinnedTo());
    }
    return List.of(
        agent.uri().toString(),
        String.valueOf(agent.epoch()),
        label(agent.target(), nodes),
        String.join(", ", notes));
  }

  private static String label(@Nullable String nodeId, Map<String, NodeInfo> nodes) {
    if (nodeId == null) {
      return "-";
    }
    String name = name(nodeId, nodes);
    return name == null ? nodeId : name;
  }

  /** The counts of the summary line, of the agents shown. */
  record AgentsSummary(int agents, int nodes, int handoffs, int paused) {
    static AgentsSummary of(List<AgentAssignment> agents) {
      int owners =
          (int)
              agents.stream()
                  .map(AgentAssignment::owner)
                  .filter(Objects::nonNull)
                  .distinct()
                  .count();
      int handoffs = (int) agents.stream().filter(AgentsCommand::handoff).count();
      int paused = (int) agents.stream().filter(AgentAssignment::paused).count();
      return new AgentsSummary(agents.size(), owners, handoffs, paused);
    }

    Map<String, Object> json() {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("agents", agents);
      fields.put("nodes", nodes);
      fields.put("handoffs", handoffs);
      fields.put("paused", paused);
      return fields;
    }

    String sentence() {
      return "%s on %s, %s in flight, %d paused."
          .formatted(
              count(agents, "agent"), count(nodes, "node"), count(handoffs, "hand-off"), paused);
    }

    private static String count(int n, String noun) {
      return n + " " + noun + (n == 1 ? "" : "s");
    }
  }
}
