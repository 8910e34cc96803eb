package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.cli.Cli.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The commands against a real store. Each provider runs it with a wiring-only subclass that names
 * the store URL and a table prefix of its own.
 */
abstract class StoreCommandsContract {

  /** The store URL to pass as {@code --store}. */
  abstract String url();

  /** The table prefix to pass as {@code --prefix}. */
  abstract String prefix();

  /** The provider name {@code status} must report. */
  abstract String provider();

  /** Runs {@code tenure ARGS --store URL --prefix PREFIX}. */
  Result tenure(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--store", url(), "--prefix", prefix()));
    return Cli.run(all.toArray(String[]::new));
  }

  /** Every test but the migrate ones starts on a migrated schema: only migrate creates one. */
  @BeforeEach
  void migrateSchema() {
    Result migrate = Cli.run("migrate", "--store", url(), "--prefix", prefix());
    assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
  }

  @Test
  void migrate_reports_the_schema_in_place_and_can_run_again() {
    String fresh = prefix() + "m_";
    for (int run = 1; run <= 2; run++) {
      Result migrate = Cli.run("migrate", "--store", url(), "--prefix", fresh);

      assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
      assertThat(migrate.out().strip())
          .matches("schema v[1-9][0-9]* in place for " + provider() + " .*")
          .endsWith("(prefix " + fresh + ")");
      // Progress on stderr: where the schema was, then what changed and how long it took.
      assertThat(migrate.errLines()).hasSize(2);
      assertThat(migrate.errLines().get(1))
          .matches(
              run == 1
                  ? "tenure: v0 -> v[1-9][0-9]* in \\d+ ms"
                  : "tenure: already up to date in \\d+ ms");
    }
  }

  @Test
  void migrate_json_names_provider_prefix_and_version() {
    Map<String, Object> json = tenure("migrate", "--json").json();

    assertThat(json)
        .containsEntry("provider", provider())
        .containsEntry("prefix", prefix())
        .containsKey("location");
    assertThat((Long) json.get("schemaVersion")).isPositive();
  }

  @Test
  void status_after_migrate_shows_every_field_with_values_aligned() {
    tenure("migrate");

    Result status = tenure("status");

    assertThat(status.exitCode()).as(status.toString()).isZero();
    List<String> lines = status.out().lines().toList();
    assertThat(lines)
        .extracting(line -> line.substring(0, 16).strip())
        .containsExactly(
            "provider",
            "database",
            "location",
            "prefix",
            "schema version",
            "time precision",
            "database now");
    assertThat(lines).allSatisfy(line -> assertThat(line.charAt(16)).isNotEqualTo(' '));
    assertThat(lines.get(0)).endsWith(provider());
    assertThat(lines.get(3)).endsWith(prefix());
    assertThat(lines.get(4)).matches("schema version +[1-9][0-9]*");
    assertThat(status.err()).isEmpty();
  }

  @Test
  void status_json_is_one_object_with_the_database_clock() {
    tenure("migrate");

    Result status = tenure("status", "--json");

    assertThat(status.exitCode()).isZero();
    Map<String, Object> json = status.json();
    assertThat(json)
        .containsEntry("provider", provider())
        .containsEntry("prefix", prefix())
        .containsKeys("database", "location", "timePrecision", "now");
    assertThat((Long) json.get("schemaVersion"))
        .isEqualTo(tenure("migrate", "--json").json().get("schemaVersion"));
    assertThat((String) json.get("database")).isNotBlank();
    assertThat(Duration.between(Instant.parse((String) json.get("now")), Instant.now()).abs())
        .isLessThan(Duration.ofMinutes(5));
  }

  @Test
  void
      every_command_but_migrate_on_a_missing_schema_exits_8_naming_the_migrate_command_and_creates_nothing() {
    String fresh = prefix() + "ro_";
    List<List<String>> commands =
        List.of(
            List.of("status"),
            List.of("nodes"),
            List.of("events"),
            List.of("events", "--kind", "JOINED"),
            List.of("agents"),
            List.of("queue", "stats"),
            List.of("queue", "pause", "orders"),
            List.of("queue", "resume", "orders"),
            List.of("queue", "limits"),
            List.of("queue", "limits", "orders", "--max-in-flight", "3"),
            List.of("messages", "cancel", "1"),
            List.of("messages", "delete", "1"),
            List.of("messages", "run-now", "1"),
            List.of("messages", "retry", "1"),
            List.of("messages", "list", "orders"),
            List.of("messages", "show", "1"),
            List.of("dlq", "list", "orders"),
            List.of("dlq", "show", "1"),
            List.of("dlq", "replay", "orders", "--all"),
            List.of("dlq", "purge", "orders", "--all", "--yes"),
            List.of("locks", "list"),
            List.of("schedules", "list"),
            List.of("schedules", "pause", "nightly"),
            List.of("schedules", "resume", "nightly"),
            List.of("schedules", "trigger", "nightly"),
            List.of("schedules", "delete", "nightly"),
            List.of("markers", "get", "t1", "r1"),
            List.of("markers", "list", "t1", "r1"),
            List.of("markers", "transition", "t1", "r1", "ARCHIVED"),
            List.of("markers", "save", "t1", "r1", "ARCHIVED"),
            List.of("markers", "clear", "t1", "r1", "ARCHIVED"));
    for (List<String> command : commands) {
      List<String> args = new ArrayList<>(command);
      args.addAll(List.of("--store", url(), "--prefix", fresh));

      Result result = Cli.run(args.toArray(String[]::new));

      assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.NO_SCHEMA);
      assertThat(result.errLines())
          .as(result.toString())
          .singleElement()
          .asString()
          .startsWith("tenure: ")
          .contains("prefix '" + fresh + "'")
          .endsWith("run tenure migrate --store " + Shell.quote(url()) + " --prefix " + fresh);
      assertThat(result.out()).as(result.toString()).isEmpty();
    }
    assertThat(tables(fresh)).as("tables of prefix " + fresh).isEmpty();
  }

  @Test
  void an_older_schema_is_refused_with_exit_8_and_left_as_it_is() {
    downgradeSchema(prefix());

    Result status = tenure("status");

    assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.NO_SCHEMA);
    assertThat(status.err()).contains("but this Tenure needs v").contains("tenure migrate");
    assertThat(tenure("status").exitCode())
        .as("the refused open upgraded nothing")
        .isEqualTo(ExitCodes.NO_SCHEMA);
  }

  /** The tables whose names start with {@code prefix}, read without creating anything. */
  abstract List<String> tables(String prefix);

  /**
   * Removes the newest schema version row of {@code prefix}, as an older Tenure would have left it.
   */
  abstract void downgradeSchema(String prefix);

  @Test
  void transition_applies_then_is_already_satisfied_then_conflicts_with_exit_3() {
    Result applied = tenure("markers", "transition", "t1", "r1", "ARCHIVED", "--reason", "retired");
    Result again = tenure("markers", "transition", "t1", "r1", "ARCHIVED");
    Result conflict = tenure("markers", "transition", "t1", "r1", "DELETED");

    assertThat(applied.exitCode()).as(applied.toString()).isZero();
    assertThat(applied.out()).startsWith("APPLIED: t1/r1 is now ARCHIVED.").contains("retired");
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).startsWith("ALREADY_SATISFIED: t1/r1 was already ARCHIVED");
    assertThat(conflict.exitCode()).isEqualTo(3);
    assertThat(conflict.out())
        .startsWith("CONFLICT: t1/r1 is ARCHIVED, not DELETED")
        .containsPattern("state +ARCHIVED")
        .containsPattern("reason +retired");
    assertThat(conflict.err()).isEmpty();
  }

  @Test
  void transition_json_carries_the_outcome_and_the_stored_marker() {
    tenure("markers", "transition", "t1", "r1", "ARCHIVED", "--json");

    Result conflict = tenure("markers", "transition", "t1", "r1", "DELETED", "--json");

    assertThat(conflict.exitCode()).isEqualTo(3);
    Map<String, Object> json = conflict.json();
    assertThat(json).containsEntry("outcome", "CONFLICT");
    assertThat(marker(json))
        .containsEntry("tenant", "t1")
        .containsEntry("resource", "r1")
        .containsEntry("state", "ARCHIVED")
        .containsEntry("reason", null)
        .containsKey("markedAt");
  }

  @Test
  void get_shows_the_stored_marker() {
    tenure("markers", "transition", "t1", "r1", "ARCHIVED", "--reason", "retired");

    Result get = tenure("markers", "get", "t1", "r1");

    assertThat(get.exitCode()).isZero();
    assertThat(get.out())
        .containsPattern("(?m)^state +ARCHIVED$")
        .containsPattern("(?m)^reason +retired$");
    assertThat(marker(tenure("markers", "get", "t1", "r1", "--json").json()))
        .containsEntry("state", "ARCHIVED");
  }

  @Test
  void get_of_a_resource_without_a_marker_exits_4() {
    Result get = tenure("markers", "get", "t1", "nothing-here");
    Result json = tenure("markers", "get", "t1", "nothing-here", "--json");

    assertThat(get.exitCode()).isEqualTo(4);
    assertThat(get.out().strip()).isEqualTo("no marker for t1/nothing-here");
    assertThat(json.exitCode()).isEqualTo(4);
    assertThat(json.json()).containsEntry("found", false).containsEntry("marker", null);
  }

  @Test
  void the_same_resource_in_two_tenants_is_independent() {
    tenure("markers", "transition", "t1", "shared", "ARCHIVED");

    assertThat(tenure("markers", "get", "t2", "shared").exitCode()).isEqualTo(4);
    assertThat(tenure("markers", "transition", "t2", "shared", "DELETED").exitCode()).isZero();
  }

  @Test
  void clear_in_another_state_exits_4_and_keeps_the_marker_then_the_right_state_clears_it() {
    tenure("markers", "transition", "t1", "r1", "ARCHIVED");

    Result wrong = tenure("markers", "clear", "t1", "r1", "DELETED");
    assertThat(wrong.exitCode()).isEqualTo(4);
    assertThat(wrong.out()).startsWith("not cleared: t1/r1 is ARCHIVED, not DELETED.");
    assertThat(tenure("markers", "get", "t1", "r1").exitCode()).isZero();

    Result right = tenure("markers", "clear", "t1", "r1", "ARCHIVED");
    assertThat(right.exitCode()).isZero();
    assertThat(right.out()).startsWith("cleared: t1/r1");
    assertThat(tenure("markers", "get", "t1", "r1").exitCode()).isEqualTo(4);
  }

  @Test
  void clear_without_a_marker_exits_4() {
    Result clear = tenure("markers", "clear", "t1", "never-marked", "ARCHIVED", "--json");

    assertThat(clear.exitCode()).isEqualTo(4);
    assertThat(clear.json()).containsEntry("cleared", false).containsEntry("marker", null);
  }

  @Test
  void save_overwrites_whatever_is_stored_with_the_given_time_and_reason() {
    tenure("markers", "transition", "t1", "r1", "ARCHIVED");

    Result save =
        tenure(
            "markers",
            "save",
            "t1",
            "r1",
            "DELETED",
            "--reason",
            "import",
            "--at",
            "2020-01-02T03:04:05.123456Z");

    assertThat(save.exitCode()).as(save.toString()).isZero();
    assertThat(save.out()).startsWith("saved: t1/r1 is DELETED (last writer wins");
    assertThat(marker(tenure("markers", "get", "t1", "r1", "--json").json()))
        .containsEntry("state", "DELETED")
        .containsEntry("reason", "import")
        .containsEntry("markedAt", "2020-01-02T03:04:05.123456Z");
  }

  @Test
  void save_without_a_time_uses_the_database_clock_now() {
    Result save = tenure("markers", "save", "t1", "r1", "ARCHIVED", "--json");

    assertThat(save.exitCode()).isZero();
    Instant markedAt = Instant.parse((String) marker(save.json()).get("markedAt"));
    assertThat(Duration.between(markedAt, Instant.now()).abs()).isLessThan(Duration.ofMinutes(5));
  }

  @Test
  void list_shows_found_and_missing_resources_in_the_order_asked() {
    tenure("markers", "transition", "t1", "b", "ARCHIVED", "--reason", "old");
    tenure("markers", "transition", "t1", "a", "DELETED");

    Result list = tenure("markers", "list", "t1", "b", "missing", "a", "b");
    Result json = tenure("markers", "list", "t1", "b", "missing", "a", "--json");

    assertThat(list.exitCode()).isZero();
    assertThat(list.out().lines().toList())
        .first()
        .isEqualTo("markers found for 2 of 3 resources of tenant t1.");
    assertThat(list.out().lines().skip(1).map(line -> line.split(" +")[0]).toList())
        .containsExactly("RESOURCE", "b", "missing", "a");
    assertThat(list.out()).containsPattern("(?m)^missing +-$");
    assertThat(json.json())
        .containsEntry("tenant", "t1")
        .containsEntry("missing", List.of("missing"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> markers = (List<Map<String, Object>>) json.json().get("markers");
    assertThat(markers).extracting(m -> m.get("resource")).containsExactly("b", "a");
  }

  @Test
  void json_output_round_trips_quotes_backslashes_newlines_and_non_ascii() {
    String reason = "said \"no\" \\ twice\nthen\ttabbed: café ✓ 𝄞";
    tenure("markers", "transition", "tenant é", "r/1", "ARCHIVED", "--reason", reason);

    Result get = tenure("markers", "get", "tenant é", "r/1", "--json");

    assertThat(get.out().strip()).matches("\\p{ASCII}+");
    assertThat(marker(get.json()))
        .containsEntry("tenant", "tenant é")
        .containsEntry("reason", reason);
  }

  @Test
  void a_malformed_argument_on_a_live_store_exits_2_and_writes_nothing() {
    Result blankTenant = tenure("markers", "transition", " ", "r1", "ARCHIVED");
    Result badState = tenure("markers", "transition", "t1", "r1", "archived");
    Result longResource = tenure("markers", "save", "t1", "r".repeat(300), "ARCHIVED");

    assertThat(List.of(blankTenant, badState, longResource))
        .allSatisfy(
            result -> {
              assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
              assertThat(result.errLines()).singleElement().asString().startsWith("tenure: ");
            });
    assertThat(badState.err()).contains("'archived'");
    assertThat(tenure("markers", "get", "t1", "r1").exitCode()).isEqualTo(4);
  }

  /** {@code tenure agents} on this provider's store. */
  @Nested
  class Agents extends AgentsCommandsContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  /** {@code tenure queue stats}, {@code dlq list} and {@code dlq show} on this provider's store. */
  @Nested
  class Queues extends QueueCommandsContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  /** {@code tenure schedules ...} on this provider's store. */
  @Nested
  class ScheduleCommands extends ScheduleCommandsContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  /** {@code tenure locks list} on this provider's store. */
  @Nested
  class Locks extends LockCommandsContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  /** {@code tenure nodes} and {@code tenure events} on this provider's store. */
  @Nested
  class Cluster extends ClusterCommandsContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  /** {@code tenure dlq replay} and {@code dlq purge} on this provider's store. */
  @Nested
  class DeadLetterChanges extends DlqChangesContract {
    @Override
    String url() {
      return StoreCommandsContract.this.url();
    }

    @Override
    String prefix() {
      return StoreCommandsContract.this.prefix();
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> marker(Map<String, Object> json) {
    return (Map<String, Object>) json.get("marker");
  }
}
