package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.cli.Cli.Result;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code tenure agents} against a real store: two nodes in the membership, four assignment rows
 * written as a leader and its nodes would leave them mid-rebalance.
 */
abstract class AgentsCommandsContract extends LiveStoreContract {
  private String one = "";
  private String two = "";

  @BeforeEach
  void seed() {
    one = join("node-1");
    two = join("node-2");
    assign("projection://orders", one, one, 3, false, null);
    assign("projection://invoices", one, two, 4, false, null); // node-1 is handing it to node-2
    assign("report://daily", two, two, 7, true, "node-2");
    assign("projection://unclaimed", null, two, 0, false, null); // node-2 has not claimed it yet
  }

  @Test
  void json_lists_every_assignment_by_uri_with_node_names_and_hand_offs_marked() {
    Result agents = tenure("agents", "--json");

    assertThat(agents.exitCode()).as(agents.toString()).isZero();
    List<Map<String, Object>> rows = list(agents.json(), "agents");
    assertThat(rows)
        .extracting(row -> row.get("uri"))
        .containsExactly(
            "projection://invoices",
            "projection://orders",
            "projection://unclaimed",
            "report://daily");
    assertThat(rows.get(0))
        .containsEntry("family", "projection")
        .containsEntry("owner", one)
        .containsEntry("ownerName", "node-1")
        .containsEntry("target", two)
        .containsEntry("targetName", "node-2")
        .containsEntry("epoch", 4L)
        .containsEntry("paused", false)
        .containsEntry("pinnedTo", null)
        .containsEntry("handoff", true);
    assertThat(rows.get(1)).containsEntry("handoff", false).containsEntry("ownerName", "node-1");
    assertThat(rows.get(2))
        .containsEntry("owner", null)
        .containsEntry("ownerName", null)
        .containsEntry("handoff", true);
    assertThat(rows.get(3))
        .containsEntry("paused", true)
        .containsEntry("pinnedTo", "node-2")
        .containsEntry("handoff", false);
    assertThat(agents.json().get("summary"))
        .isEqualTo(Map.of("agents", 4L, "nodes", 2L, "handoffs", 2L, "paused", 1L));
  }

  @Test
  void text_groups_agents_by_owner_and_ends_with_the_summary() {
    Result agents = tenure("agents");

    assertThat(agents.exitCode()).as(agents.toString()).isZero();
    List<String> lines = agents.out().lines().toList();
    assertThat(lines.get(0)).matches(" +URI +EPOCH +TARGET +NOTES");
    assertThat(lines.get(1)).startsWith("node-1 (" + one + ", ").endsWith("): 2 agents");
    assertThat(lines.get(2)).matches(" +projection://invoices +4 +node-2 +hand-off in flight");
    assertThat(lines.get(3)).matches(" +projection://orders +3 +node-1");
    assertThat(lines.get(4)).startsWith("node-2 (" + two + ", ").endsWith("): 1 agent");
    assertThat(lines.get(5)).matches(" +report://daily +7 +node-2 +paused, pinned to node-2");
    assertThat(lines.get(6)).isEqualTo("(no owner): 1 agent");
    assertThat(lines.get(7)).matches(" +projection://unclaimed +0 +node-2 +hand-off in flight");
    assertThat(lines.getLast()).isEqualTo("4 agents on 2 nodes, 2 hand-offs in flight, 1 paused.");
    assertThat(agents.err()).isEmpty();
  }

  @Test
  void node_filter_keeps_the_agents_it_owns_or_is_the_target_of() {
    Map<String, Object> json = tenure("agents", "--node", "node-2", "--json").json();

    assertThat(list(json, "agents"))
        .extracting(row -> row.get("uri"))
        .containsExactly("projection://invoices", "projection://unclaimed", "report://daily");
    assertThat(json.get("summary"))
        .isEqualTo(Map.of("agents", 3L, "nodes", 2L, "handoffs", 2L, "paused", 1L));
    assertThat(list(tenure("agents", "--node", one, "--json").json(), "agents")).hasSize(2);
  }

  @Test
  void family_filter_keeps_one_uri_scheme() {
    Result agents = tenure("agents", "--family", "report");

    assertThat(agents.exitCode()).isZero();
    assertThat(agents.out()).contains("report://daily").doesNotContain("projection://");
    assertThat(agents.out().lines().toList().getLast())
        .isEqualTo("1 agent on 1 node, 0 hand-offs in flight, 1 paused.");
  }

  @Test
  void an_owner_without_a_membership_row_is_shown_by_id() {
    assign("projection://orphan", "gone-node-id", "gone-node-id", 9, false, null);

    Result agents = tenure("agents", "--family", "projection");
    Map<String, Object> orphan =
        list(tenure("agents", "--json").json(), "agents").stream()
            .filter(row -> row.get("uri").equals("projection://orphan"))
            .findFirst()
            .orElseThrow();

    assertThat(agents.out())
        .contains("node gone-node-id (no membership row: it left or died): 1 agent");
    assertThat(orphan).containsEntry("ownerName", null).containsEntry("owner", "gone-node-id");
  }

  @Test
  void a_malformed_family_exits_2_and_changes_nothing() {
    Result agents = tenure("agents", "--family", "Not A Scheme");

    assertOneErrorLine(agents, 2);
    assertThat(agents.err()).contains("'Not A Scheme'");
    assertThat(list(tenure("agents", "--json").json(), "agents")).hasSize(4);
  }
}
