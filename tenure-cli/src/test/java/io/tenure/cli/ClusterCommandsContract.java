package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.ClusterEvent;
import io.tenure.cli.Cli.Result;
import io.tenure.server.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@code tenure nodes} and {@code tenure events} end to end on a real store, seeded through the SPI
 * as running nodes would write it.
 */
abstract class ClusterCommandsContract extends LiveStoreContract {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @Test
  void nodes_json_lists_every_member_and_the_leader_with_its_epoch() {
    String a = join("node-a");
    String b = join("node-b");
    long epoch = lead(a);
    assign("projection://p-1", a, a, 1, false, null);

    Result nodes = tenure("nodes", "--json");

    assertThat(nodes.exitCode()).as(nodes.toString()).isZero();
    Map<String, Object> json = nodes.json();
    assertThat(json).containsKeys("now", "store").containsEntry("epoch", epoch);
    assertThat(map(json, "leader"))
        .containsEntry("nodeId", a)
        .containsEntry("name", "node-a")
        .containsEntry("epoch", epoch)
        .containsKey("expiresAt");
    List<Map<String, Object>> members = list(json, "nodes");
    assertThat(members).extracting(m -> m.get("name")).containsExactly("node-a", "node-b");
    assertThat(members.get(0))
        .containsEntry("nodeId", a)
        .containsEntry("leader", true)
        .containsEntry("agents", 1L)
        .containsEntry("status", "JOINING")
        .containsKeys("address", "capabilities", "startedAt", "heartbeatAt");
    assertThat(members.get(1))
        .containsEntry("nodeId", b)
        .containsEntry("leader", false)
        .containsEntry("agents", 0L);
    assertThat((Long) members.get(0).get("heartbeatAgeMs")).isBetween(0L, 60_000L);
  }

  @Test
  void nodes_text_names_the_leader_and_shows_one_row_per_member() {
    String a = join("node-a");
    join("node-b");
    long epoch = lead(a);

    Result nodes = tenure("nodes");

    assertThat(nodes.exitCode()).as(nodes.toString()).isZero();
    List<String> lines = nodes.out().lines().toList();
    assertThat(lines.get(0))
        .startsWith("leader: node-a (" + a + ") at epoch " + epoch + ", its lease expires in ");
    assertThat(lines.get(1))
        .matches("NAME +STATUS +LEADER +HEARTBEAT +AGENTS +ADDRESS +STARTED +INCARNATION");
    assertThat(lines.get(2))
        .startsWith("node-a ")
        .contains("JOINING", "leader, epoch " + epoch, " ago", a);
    assertThat(lines.get(3)).startsWith("node-b ").doesNotContain("leader");
    assertThat(lines.get(4)).isEqualTo("2 nodes: 2 JOINING.");
  }

  @Test
  void nodes_on_an_empty_cluster_says_so() {
    Result nodes = tenure("nodes");

    assertThat(nodes.exitCode()).as(nodes.toString()).isZero();
    assertThat(nodes.out().lines().toList())
        .containsExactly(
            "leader: none yet (no node has ever held the lease)",
            "no nodes: none is running on this store and prefix (or all left).");
    assertThat(tenure("nodes", "--json").json())
        .containsEntry("leader", null)
        .containsEntry("nodes", List.of());
  }

  @Test
  void events_json_is_the_history_oldest_first_naming_nodes_that_have_left() {
    String gone = "0badc0de-0000-4000-8000-000000000001";
    append(ClusterEvent.Kind.JOINED, gone, null, "name node-gone");
    append(ClusterEvent.Kind.LEADER_ACQUIRED, gone, 1L, "acquired the lease");
    append(ClusterEvent.Kind.LEFT, gone, null, "left gracefully");

    Result events = tenure("events", "--json");

    assertThat(events.exitCode()).as(events.toString()).isZero();
    List<Map<String, Object>> all = list(events.json(), "events");
    assertThat(all)
        .extracting(e -> e.get("kind"))
        .containsExactly("JOINED", "LEADER_ACQUIRED", "LEFT");
    assertThat(all)
        .allSatisfy(
            e ->
                assertThat(e)
                    .containsEntry("nodeId", gone)
                    .containsEntry("nodeName", "node-gone")
                    .containsKeys("id", "at", "detail"));
    assertThat(all.get(1)).containsEntry("epoch", 1L).containsEntry("detail", "acquired the lease");
    assertThat((Long) all.get(0).get("id")).isLessThan((Long) all.get(2).get("id"));
  }

  @Test
  void events_are_filtered_by_kind_node_time_and_limited_to_the_newest() {
    String a = join("node-a");
    String b = join("node-b");
    append(ClusterEvent.Kind.JOINED, a, null, "name node-a");
    append(ClusterEvent.Kind.JOINED, b, null, "name node-b");
    append(ClusterEvent.Kind.LEADER_ACQUIRED, a, 1L, "first");
    append(ClusterEvent.Kind.LEADER_LOST, a, 1L, "lost");
    append(ClusterEvent.Kind.LEADER_ACQUIRED, b, 2L, "second");

    assertThat(details("events", "--kind", "LEADER_ACQUIRED", "--json"))
        .containsExactly("first", "second");
    assertThat(details("events", "--kind", "leader_acquired,LEADER_LOST", "--json"))
        .containsExactly("first", "lost", "second");
    assertThat(details("events", "--node", "node-a", "--json"))
        .containsExactly("name node-a", "first", "lost");
    assertThat(details("events", "--node", b, "--json")).containsExactly("name node-b", "second");
    assertThat(details("events", "--limit", "2", "--json")).containsExactly("lost", "second");
    assertThat(details("events", "--node", "node-a", "--limit", "1", "--json"))
        .containsExactly("lost");
    assertThat(details("events", "--since", "1h", "--json")).hasSize(5);
    assertThat(
            details(
                "events", "--since", Instant.now().plus(Duration.ofDays(1)).toString(), "--json"))
        .isEmpty();
  }

  @Test
  void events_text_is_one_line_per_event_with_time_kind_node_epoch_and_detail() {
    String a = join("node-a");
    append(ClusterEvent.Kind.LEADER_ACQUIRED, a, 3L, "acquired the lease");

    Result events = tenure("events");

    assertThat(events.exitCode()).as(events.toString()).isZero();
    assertThat(events.out().lines().toList())
        .singleElement()
        .asString()
        .matches(
            "\\d{4}-\\d\\d-\\d\\dT[^ ]+Z +LEADER_ACQUIRED +node-a +epoch 3 +acquired the lease");
    assertThat(tenure("events", "--kind", "LEFT").out().strip()).isEqualTo("no events match.");
  }

  @Test
  void events_follow_prints_each_new_event_once_as_a_json_line_until_stopped() throws Exception {
    String a = join("node-a");
    append(ClusterEvent.Kind.LEADER_ACQUIRED, a, 1L, "older, beyond the limit");
    append(ClusterEvent.Kind.JOINED, a, null, "name node-a");
    EventsCommand[] command = new EventsCommand[1];
    Cli.Background follow =
        Cli.start(
            line -> command[0] = (EventsCommand) line.getSubcommands().get("events").getCommand(),
            "events",
            "--follow",
            "--json",
            "--interval",
            "100ms",
            "--limit",
            "1",
            "--store",
            url(),
            "--prefix",
            prefix());
    try {
      awaitLines(follow, 1);
      append(ClusterEvent.Kind.LEADER_ACQUIRED, a, 2L, "new one");
      append(ClusterEvent.Kind.AGENT_STARTED, a, 2L, "another");
      awaitLines(follow, 3);
      // One more poll, so a repeat of anything would show.
      append(ClusterEvent.Kind.LEADER_LOST, a, 2L, "last");
      awaitLines(follow, 4);
    } finally {
      command[0].stop.countDown();
    }
    Result result = follow.result().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

    assertThat(result.exitCode()).as(result.toString()).isZero();
    List<Map<String, Object>> lines = result.out().lines().map(Json::parseObject).toList();
    assertThat(lines)
        .extracting(e -> e.get("detail"))
        .containsExactly("name node-a", "new one", "another", "last");
    assertThat(lines).allSatisfy(e -> assertThat(e).containsEntry("nodeName", "node-a"));
  }

  @Test
  void events_follow_applies_the_filters_to_new_events_too() throws Exception {
    String a = join("node-a");
    String b = join("node-b");
    EventsCommand[] command = new EventsCommand[1];
    Cli.Background follow =
        Cli.start(
            line -> command[0] = (EventsCommand) line.getSubcommands().get("events").getCommand(),
            "events",
            "--follow",
            "--interval",
            "100ms",
            "--kind",
            "LEADER_ACQUIRED",
            "--node",
            "node-b",
            "--store",
            url(),
            "--prefix",
            prefix());
    try {
      append(ClusterEvent.Kind.LEADER_ACQUIRED, a, 1L, "not b");
      append(ClusterEvent.Kind.AGENT_STARTED, b, 1L, "not a leader event");
      append(ClusterEvent.Kind.LEADER_ACQUIRED, b, 2L, "b leads");
      awaitLines(follow, 1);
    } finally {
      command[0].stop.countDown();
    }
    Result result = follow.result().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(result.out().lines().toList())
        .singleElement()
        .asString()
        .contains("node-b", "b leads");
  }

  @Test
  void bad_event_filters_exit_2_before_the_store_is_read() {
    for (String[] bad :
        new String[][] {
          {"--kind", "NOPE"},
          {"--limit", "0"},
          {"--limit", "10001"},
          {"--since", "yesterday"},
          {"--interval", "1ms"},
          {"--node", " "}
        }) {
      Result result = tenure(concat("events", bad));
      assertOneErrorLine(result, ExitCodes.USAGE);
    }
    assertThat(tenure("events", "--kind", "NOPE").err()).contains("'NOPE'", "LEADER_ACQUIRED");
  }

  private static String[] concat(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  private List<Object> details(String... args) {
    Result result = tenure(args);
    assertThat(result.exitCode()).as(result.toString()).isZero();
    return list(result.json(), "events").stream().map(e -> e.get("detail")).toList();
  }

  /** Acquires the leader lease for {@code nodeId}, as an elector does; returns the epoch. */
  private long lead(String nodeId) {
    return inStore(
        store -> store.leases().acquire(nodeId, Duration.ofMinutes(5)).orElseThrow().epoch());
  }

  private void append(ClusterEvent.Kind kind, String nodeId, Long epoch, String detail) {
    inStore(
        store -> {
          store.events().append(kind, nodeId, epoch, detail);
          return null;
        });
  }

  /** Waits, with a generous deadline, until a background run has printed {@code count} lines. */
  private static void awaitLines(Cli.Background run, int count) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    Supplier<Long> lines = () -> run.out().toString().lines().count();
    while (lines.get() < count) {
      assertThat(System.nanoTime())
          .as("waiting for " + count + " lines; got:\n" + run.out())
          .isLessThan(end);
      assertThat(run.result()).as(() -> "the run ended: " + run.result().join()).isNotDone();
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> json, String field) {
    return (Map<String, Object>) json.get(field);
  }
}
