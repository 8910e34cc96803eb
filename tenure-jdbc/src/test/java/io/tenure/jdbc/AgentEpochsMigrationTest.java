package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Schema V9 seeds each agent's epoch record from its row, so a store upgraded while agents run
 * keeps their epochs: a row deleted after the upgrade comes back to its owner at its epoch, and the
 * next claim continues above it. A migration re-run over a record left behind keeps the higher
 * epoch.
 */
class AgentEpochsMigrationTest {
  private static final AgentUri OWNED = AgentUri.parse("p://owned");
  private static final AgentUri FREE = AgentUri.parse("p://free");

  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void upgrading_to_v9_records_every_agents_epoch_from_its_row(JdbcFixture.Kind kind)
      throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    backToV8(prefix, true);

    Store store = fixture.open(prefix);

    assertThat(record(prefix, OWNED)).isEqualTo("7 node-a");
    assertThat(record(prefix, FREE)).isEqualTo("2 null");
    AgentStore agents = store.agents();
    LeaderFence fence =
        new LeaderFence(
            "leader",
            store.leases().acquire("leader", Duration.ofMinutes(1)).orElseThrow().epoch());
    fixture.deleteAgentRows(prefix, List.of(OWNED));
    agents.placeAll(Map.of(OWNED, "node-b"), Set.of(), fence);
    assertThat(agents.read(OWNED))
        .contains(new AgentAssignment(OWNED, "node-a", "node-b", 7, false, null));
    assertThat(agents.claim(FREE, "node-b")).hasValue(3);
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_migration_run_again_over_records_left_behind_keeps_the_higher_epoch(JdbcFixture.Kind kind)
      throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    backToV8(prefix, false);
    execute("DELETE FROM " + prefix.table("agent_epochs"));
    execute(
        "INSERT INTO "
            + prefix.table("agent_epochs")
            + " (agent_uri, epoch, owner_node) VALUES ('p://owned', 5,"
            + " 'node-x'), ('p://free', 9, NULL)");

    fixture.open(prefix);

    assertThat(record(prefix, OWNED)).as("the row's epoch is higher").isEqualTo("7 node-a");
    assertThat(record(prefix, FREE)).as("the record's epoch is higher").isEqualTo("9 null");
  }

  /** A schema as a v8 build left it, with rows its nodes wrote; V9's table dropped or kept. */
  private void backToV8(TablePrefix prefix, boolean dropRecords) throws SQLException {
    fixture.open(prefix).close();
    if (dropRecords) {
      execute("DROP TABLE " + prefix.table("agent_epochs"));
    }
    // A v8 build had neither V9's records nor anything after them (locks, schedules, queue
    // controls, message groups and V14's message options).
    execute("DROP TABLE " + prefix.table("locks"));
    execute("DROP TABLE " + prefix.table("schedules"));
    execute("DROP TABLE " + prefix.table("queue_controls"));
    execute("DROP TABLE " + prefix.table("queue_claims"));
    for (String column :
        List.of(
            "msg_group",
            "timeout_us",
            "unique_for_us",
            "progress",
            "progress_note",
            "checkpoint")) {
      execute("ALTER TABLE " + prefix.table("messages") + " DROP COLUMN " + column);
    }
    execute("DELETE FROM " + prefix.table("schema_version") + " WHERE version >= 9");
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO "
                    + prefix.table("agents")
                    + " (agent_uri, owner_node, target_node, epoch, paused, pinned_to) VALUES (?, ?, ?, ?, ?, NULL)")) {
      row(insert, OWNED, "node-a", "node-a", 7);
      row(insert, FREE, null, "node-b", 2);
    }
    fixture.closeStores();
  }

  private static void row(
      PreparedStatement insert, AgentUri uri, @Nullable String owner, String target, long epoch)
      throws SQLException {
    insert.setString(1, uri.toString());
    insert.setString(2, owner);
    insert.setString(3, target);
    insert.setLong(4, epoch);
    insert.setBoolean(5, false);
    insert.executeUpdate();
  }

  private String record(TablePrefix prefix, AgentUri uri) throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT epoch, owner_node FROM "
                    + prefix.table("agent_epochs")
                    + " WHERE agent_uri = ?")) {
      query.setString(1, uri.toString());
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).as("a record of " + uri).isTrue();
        return rows.getLong(1) + " " + rows.getString(2);
      }
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
