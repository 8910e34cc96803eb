package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.cli.Cli.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input gets one clear line on stderr, the documented exit code, and changes nothing: the
 * SQLite file the command names is never even created.
 */
class BadInputTest {
  @TempDir Path directory;

  private Path file() {
    return directory.resolve("t.db");
  }

  private String store() {
    return "sqlite:" + file();
  }

  private static void assertOneErrorLine(Result result, int exitCode) {
    assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
    assertThat(result.errLines())
        .as(result.toString())
        .singleElement()
        .asString()
        .startsWith("tenure: ");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void a_node_admin_endpoint_on_a_port_in_use_is_refused_before_the_store_is_touched()
      throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Result result =
          Cli.run(
              "node",
              "--store",
              store(),
              "--name",
              "n1",
              "--http",
              String.valueOf(taken.getLocalPort()));

      assertOneErrorLine(result, 2);
      assertThat(result.err()).contains("port is in use");
      assertThat(file()).doesNotExist();
    }
  }

  @Test
  void a_node_admin_endpoint_beyond_loopback_without_a_token_is_refused() {
    Result result =
        Cli.run(
            "node", "--store", store(), "--name", "n1", "--http", "0", "--http-host", "0.0.0.0");

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("give it a token");
    assertThat(file()).doesNotExist();
  }

  @Test
  void a_node_admin_endpoint_with_an_allowed_host_that_is_no_host_name_is_refused() {
    Result result =
        Cli.run(
            "node",
            "--store",
            store(),
            "--name",
            "n1",
            "--http",
            "0",
            "--http-allowed-host",
            "tenure.internal",
            "--http-allowed-host",
            "evil example");

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("'evil example'");
    assertThat(file()).doesNotExist();
  }

  @Test
  void sample_agents_need_a_family_and_a_count_in_range() {
    for (String bad : new String[] {"queue=2", "projection=0", "projection=x", "Bad Family=1"}) {
      Result result = Cli.run("node", "--store", store(), "--name", "n1", "--agents", bad);

      assertOneErrorLine(result, 2);
      assertThat(file()).doesNotExist();
    }
  }

  @Test
  void chaos_settings_out_of_range_are_refused_before_anything_runs() {
    Path run = directory.resolve("run");
    String[][] cases = {
      {"--rate", "0", "rate must be 1 to 1000"},
      {"--work", "2m", "work must be 0 to 1 minute"},
      {"--lock-work", "2s", "lock-work must be 0 to 1s"},
      {"--stall-leader-pass", "31s", "--stall-leader-pass must be 0 to 30s"},
      {"--unsafe", "everything", "unknown --unsafe guard 'everything'"},
      {"--faults", "flood", "unknown fault 'flood'"},
      {"--nodes", "1", "nodes must be 2 to 9"},
    };
    for (String[] bad : cases) {
      Result result =
          Cli.run("chaos", "--store", "sqlite", "--dir", run.toString(), bad[0], bad[1]);

      assertOneErrorLine(result, 2);
      assertThat(result.err()).contains(bad[2]);
      assertThat(run).doesNotExist();
    }
  }

  @Test
  void an_unknown_command_exits_2_naming_it() {
    Result result = Cli.run("frobnicate", "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("unknown command 'frobnicate'").contains("'tenure --help'");
    assertThat(file()).doesNotExist();
  }

  @Test
  void an_unknown_markers_command_exits_2_naming_it() {
    Result result = Cli.run("markers", "delete", "t1", "r1");

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("'delete'").contains("'tenure markers --help'");
  }

  @Test
  void a_misspelt_command_gets_a_suggestion() {
    Result result = Cli.run("stauts");

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("did you mean 'status'");
  }

  @Test
  void no_command_at_all_is_a_usage_error() {
    assertOneErrorLine(Cli.run(), 2);
    assertOneErrorLine(Cli.run("markers"), 2);
  }

  @Test
  void an_unknown_option_exits_2_and_creates_no_store() {
    Result result = Cli.run("status", "--frobnicate", "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("'--frobnicate'").contains("'tenure status --help'");
    assertThat(file()).doesNotExist();
  }

  @Test
  void a_missing_argument_exits_2() {
    Result result = Cli.run("markers", "transition", "t1", "r1", "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("STATE");
    assertThat(file()).doesNotExist();
  }

  @Test
  void an_invalid_prefix_exits_2_naming_it_and_creates_no_store() {
    Result result = Cli.run("migrate", "--store", store(), "--prefix", "Bad-Prefix");

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("'Bad-Prefix'").contains("[a-z][a-z0-9_]{0,29}");
    assertThat(file()).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"transition", "get", "clear", "save", "list"})
  void a_blank_tenant_exits_2_in_every_markers_command_and_creates_no_store(String command) {
    Result result = Cli.run(markersArgs(command, " "));

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("tenant must not be empty or blank");
    assertThat(file()).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"transition", "get", "clear", "save", "list"})
  void a_300_character_tenant_exits_2_in_every_markers_command_and_creates_no_store(
      String command) {
    Result result = Cli.run(markersArgs(command, "t".repeat(300)));

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("tenant must be at most 128 characters, got 300");
    assertThat(file()).doesNotExist();
  }

  private String[] markersArgs(String command, String tenant) {
    List<String> args = new ArrayList<>(List.of("markers", command, tenant, "r1"));
    if (List.of("transition", "clear", "save").contains(command)) {
      args.add("ARCHIVED");
    }
    args.addAll(List.of("--store", store()));
    return args.toArray(String[]::new);
  }

  @Test
  void a_malformed_state_or_time_exits_2_and_creates_no_store() {
    Result state = Cli.run("markers", "save", "t1", "r1", "gone", "--store", store());
    Result time =
        Cli.run("markers", "save", "t1", "r1", "GONE", "--at", "yesterday", "--store", store());

    assertOneErrorLine(state, 2);
    assertThat(state.err()).contains("'gone'");
    assertOneErrorLine(time, 2);
    assertThat(time.err()).contains("'yesterday'").contains("2024-05-01T12:00:00Z");
    assertThat(file()).doesNotExist();
  }

  @Test
  void listing_more_resources_than_one_batch_exits_2_and_creates_no_store() {
    List<String> args = new ArrayList<>(List.of("markers", "list", "t1", "--store", store()));
    IntStream.rangeClosed(1, 501).forEach(i -> args.add("r" + i));

    Result result = Cli.run(args.toArray(String[]::new));

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("at most 500 resources");
    assertThat(file()).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"list", "replay", "purge"})
  void a_dlq_command_without_a_queue_exits_2_naming_it_and_creates_no_store(String command) {
    Result result = Cli.run("dlq", command, "--all", "--yes", "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("QUEUE");
    assertThat(file()).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "10001", "-5"})
  void a_dlq_list_limit_out_of_range_exits_2_and_creates_no_store(String limit) {
    Result result = Cli.run("dlq", "list", "orders", "--limit", limit, "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("--limit must be 1 to 10000, got " + limit);
    assertThat(file()).doesNotExist();
  }

  @Test
  void a_malformed_queue_name_or_duration_exits_2_and_creates_no_store() {
    Result name = Cli.run("queue", "stats", "Orders!", "--store", store());
    Result age = Cli.run("dlq", "list", "orders", "--older-than", "yesterday", "--store", store());

    assertOneErrorLine(name, 2);
    assertThat(name.err()).contains("'Orders!'");
    assertOneErrorLine(age, 2);
    assertThat(age.err()).contains("'yesterday'").contains("5s");
    assertThat(file()).doesNotExist();
  }

  @Test
  void malformed_queue_limits_exit_2_naming_the_value_and_create_no_store() {
    Result rate = Cli.run("queue", "limits", "orders", "--rate", "10", "--store", store());
    Result period = Cli.run("queue", "limits", "orders", "--rate", "10/soon", "--store", store());
    Result negative =
        Cli.run("queue", "limits", "orders", "--max-in-flight", "-1", "--store", store());
    Result noQueue = Cli.run("queue", "limits", "--max-in-flight", "3", "--store", store());
    Result noneAndMore =
        Cli.run("queue", "limits", "orders", "--none", "--max-in-flight", "3", "--store", store());
    Result groupOnly = Cli.run("queue", "limits", "orders", "--rate-per-group", "--store", store());
    Result pause = Cli.run("queue", "pause", "Orders!", "--store", store());

    assertOneErrorLine(rate, 2);
    assertThat(rate.err()).contains("N/PERIOD").contains("'10'");
    assertOneErrorLine(period, 2);
    assertThat(period.err()).contains("'soon'");
    assertOneErrorLine(negative, 2);
    assertThat(negative.err()).contains("max in flight must be 0 (no limit) to 1000000, got -1");
    assertOneErrorLine(noQueue, 2);
    assertThat(noQueue.err()).contains("needs the QUEUE");
    assertOneErrorLine(noneAndMore, 2);
    assertThat(noneAndMore.err()).contains("--none");
    assertOneErrorLine(groupOnly, 2);
    assertThat(groupOnly.err()).contains("--rate-per-group needs --rate");
    assertOneErrorLine(pause, 2);
    assertThat(pause.err()).contains("'Orders!'");
    assertThat(file()).doesNotExist();
  }

  /** The test JVM has no terminal: its stdin and stdout are pipes to the build. */
  @Test
  void purge_without_yes_and_without_a_terminal_refuses_and_creates_no_store() {
    Result result = Cli.run("dlq", "purge", "orders", "--all", "--store", store());

    assertOneErrorLine(result, 2);
    assertThat(result.err())
        .contains("not on a terminal")
        .contains("--yes")
        .contains("nothing purged");
    assertThat(file()).doesNotExist();
  }

  @Test
  void replay_and_purge_need_exactly_one_choice_of_what_and_create_no_store() {
    Result nothing = Cli.run("dlq", "replay", "orders", "--store", store());
    Result both = Cli.run("dlq", "replay", "orders", "--all", "--key", "k1", "--store", store());
    Result purge = Cli.run("dlq", "purge", "orders", "--yes", "--store", store());
    Result idZero = Cli.run("dlq", "replay", "orders", "--id", "0", "--store", store());

    assertOneErrorLine(nothing, 2);
    assertThat(nothing.err()).contains("choose what to replay: --id ID, --all, or filters");
    assertOneErrorLine(both, 2);
    assertOneErrorLine(purge, 2);
    assertThat(purge.err()).contains("choose what to purge: --all, or filters");
    assertOneErrorLine(idZero, 2);
    assertThat(idZero.err()).contains("message ids are positive, got 0");
    assertThat(file()).doesNotExist();
  }

  @Test
  void an_unknown_queue_or_dlq_command_exits_2_naming_it() {
    assertOneErrorLine(Cli.run("dlq"), 2);
    assertOneErrorLine(Cli.run("queue"), 2);
    Result result = Cli.run("dlq", "delete", "orders");
    assertOneErrorLine(result, 2);
    assertThat(result.err()).contains("'delete'").contains("'tenure dlq --help'");
  }

  @Test
  void an_unknown_url_scheme_exits_6_naming_the_supported_forms() {
    Result result = Cli.run("status", "--store", "oracle:x");

    assertOneErrorLine(result, 6);
    assertThat(result.err())
        .contains("'oracle:x'")
        .contains("sqlite:PATH")
        .contains("jdbc:postgresql");
  }

  @Test
  void a_jdbc_url_of_an_unsupported_database_exits_6() {
    Result result = Cli.run("migrate", "--store", "jdbc:h2:mem:nothing");

    assertOneErrorLine(result, 6);
    assertThat(result.err()).contains("PostgreSQL");
  }

  @Test
  void an_unreachable_database_exits_5_with_one_line_and_the_password_masked() {
    Result result =
        Cli.run(
            "markers",
            "transition",
            "t1",
            "r1",
            "ARCHIVED",
            "--store",
            "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=s3cret");

    assertOneErrorLine(result, 5);
    assertThat(result.err()).contains("127.0.0.1:1").doesNotContain("s3cret");
  }
}
