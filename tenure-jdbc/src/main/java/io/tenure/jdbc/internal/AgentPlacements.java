package io.tenure.jdbc.internal;

import static io.tenure.jdbc.internal.Updates.count;

import io.tenure.AgentUri;
import io.tenure.jdbc.internal.Updates.Binder;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The leader's writes of {@code <prefix>agents}: placements, retirements and the release of a dead
 * node's rows. Each embeds the lease fence in its own SQL; one that changed no row re-reads the
 * fence in its transaction to tell a deposed leader ({@link AssignmentWrite#FENCED}) from a row
 * that did not qualify.
 */
final class AgentPlacements {
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final String nodes;
  private final String channel;
  private final AgentClaims claims;
  private final AgentRows rows;
  private final Fences fences;
  private final String fence;

  AgentPlacements(
      Jdbc jdbc,
      TablePrefix prefix,
      String channel,
      Fences fences,
      AgentClaims claims,
      AgentRows rows) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.nodes = prefix.table("nodes");
    this.channel = channel;
    this.claims = claims;
    this.rows = rows;
    this.fences = fences;
    this.fence = "EXISTS (" + fences.leaderQuery() + ")";
  }

  AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence leader) {
    String update = "UPDATE " + agents + " SET target_node = ? WHERE agent_uri = ? AND " + fence;
    String insert = placedRow();
    return jdbc.write(
        "place agent " + uri + " on " + target,
        connection -> {
          for (int attempt = 0; attempt < 2; attempt++) {
            if (count(
                    connection,
                    update,
                    s -> {
                      s.setString(1, target);
                      s.setString(2, uri.toString());
                      Fences.bindLeader(s, 3, leader);
                    })
                == 1) {
              return AssignmentWrite.APPLIED;
            }
            if (!fences.leaderHolds(connection, leader)) {
              return AssignmentWrite.FENCED;
            }
            if (target == null) {
              return AssignmentWrite.NOT_ELIGIBLE;
            }
            if (Updates.insertIfAbsent(
                dialect, connection, insert, s -> bindPlacedRow(s, uri, target))) {
              return AssignmentWrite.APPLIED;
            }
            // A node restored the row between our update and insert: update it now.
          }
          throw new IllegalStateException(
              "placing agent "
                  + uri
                  + " found its row both absent and present, which indicates a bug");
        },
        result -> result == AssignmentWrite.APPLIED);
  }

  AssignmentWrite placeAll(
      Map<AgentUri, @Nullable String> targets, Set<AgentUri> onlyIfUnowned, LeaderFence leader) {
    if (targets.isEmpty()) {
      return AssignmentWrite.APPLIED;
    }
    String update = "UPDATE " + agents + " SET target_node = ? WHERE agent_uri = ? AND " + fence;
    // A row claimed since the leader's snapshot keeps its target: its move was planned as free.
    String updateUnowned =
        "UPDATE "
            + agents
            + " SET target_node = ? WHERE agent_uri = ? AND owner_node IS NULL AND "
            + fence;
    return jdbc.write(
        "place " + targets.size() + " agents",
        connection -> {
          if (!fences.leaderHolds(connection, leader)) {
            return AssignmentWrite.FENCED;
          }
          Set<String> existing = rows.existingUris(connection, targets.keySet());
          try (PreparedStatement statement = connection.prepareStatement(update);
              PreparedStatement unowned = connection.prepareStatement(updateUnowned)) {
            for (Map.Entry<AgentUri, @Nullable String> entry : targets.entrySet()) {
              if (existing.contains(entry.getKey().toString())) {
                PreparedStatement s = onlyIfUnowned.contains(entry.getKey()) ? unowned : statement;
                s.setString(1, entry.getValue());
                s.setString(2, entry.getKey().toString());
                Fences.bindLeader(s, 3, leader);
                s.addBatch();
              }
            }
            statement.executeBatch();
            unowned.executeBatch();
          }
          insertPlaced(
              connection,
              targets.entrySet().stream()
                  .filter(
                      entry ->
                          entry.getValue() != null && !existing.contains(entry.getKey().toString()))
                  .toList());
          // Re-checked at the end of the transaction: a take-over meanwhile rolls everything back.
          if (!fences.leaderHolds(connection, leader)) {
            return AssignmentWrite.FENCED;
          }
          notifyPlaced(connection, leader);
          return AssignmentWrite.APPLIED;
        },
        result -> result == AssignmentWrite.APPLIED);
  }

  /** Inserts the rows of placed agents that had none. */
  private void insertPlaced(
      Connection connection, List<Map.Entry<AgentUri, @Nullable String>> inserts)
      throws SQLException {
    String insert = placedRow();
    if (dialect.insertIfAbsentReportsDuplicates()) {
      // One at a time: MariaDB reports a concurrent restore as a duplicate-key error.
      for (Map.Entry<AgentUri, @Nullable String> entry : inserts) {
        Updates.insertIfAbsent(
            dialect, connection, insert, s -> bindPlacedRow(s, entry.getKey(), entry.getValue()));
      }
    } else if (!inserts.isEmpty()) {
      // ON CONFLICT DO NOTHING: a concurrent restore is skipped, so a cold start is one batch.
      try (PreparedStatement statement = connection.prepareStatement(insert)) {
        for (Map.Entry<AgentUri, @Nullable String> entry : inserts) {
          bindPlacedRow(statement, entry.getKey(), entry.getValue());
          statement.addBatch();
        }
        statement.executeBatch();
      }
    }
  }

  /** The insert of a placed agent that has no row: as its epoch record has it (see AgentClaims). */
  private String placedRow() {
    return dialect.insertIfAbsent(agents, AgentRows.COLUMNS, claims.placedRow(), "agent_uri");
  }

  private static void bindPlacedRow(
      PreparedStatement statement, AgentUri uri, @Nullable String target) throws SQLException {
    statement.setString(1, uri.toString());
    statement.setString(2, uri.toString());
    statement.setString(3, target);
    statement.setString(4, uri.toString());
    statement.setBoolean(5, false);
  }

  /** PostgreSQL: delivered when the placement commits, so a node that hears it reads the rows. */
  private void notifyPlaced(Connection connection, LeaderFence leader) throws SQLException {
    if (!dialect.supportsNotify()) {
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
      statement.setString(1, channel);
      statement.setString(2, Long.toString(leader.epoch()));
      statement.execute();
    }
  }

  AssignmentWrite retire(AgentUri uri, LeaderFence leader) {
    String delete =
        "DELETE FROM " + agents + " WHERE agent_uri = ? AND owner_node IS NULL AND " + fence;
    return fencedWrite(
        "retire agent " + uri,
        leader,
        delete,
        s -> {
          s.setString(1, uri.toString());
          Fences.bindLeader(s, 2, leader);
        },
        connection -> {});
  }

  AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence leader) {
    String update =
        "UPDATE "
            + agents
            + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ? AND "
            + fence
            + " AND NOT EXISTS (SELECT 1 FROM "
            + nodes
            + " n WHERE n.node_id = ? AND "
            + dialect.plusMicros("n.heartbeat_at", "n.fence_after_us")
            + " > "
            + dialect.now()
            + ")";
    return fencedWrite(
        "free agent " + uri + " from dead node " + deadOwner,
        leader,
        update,
        s -> {
          s.setString(1, uri.toString());
          s.setString(2, deadOwner);
          Fences.bindLeader(s, 3, leader);
          s.setString(5, deadOwner);
        },
        connection -> claims.letGo(connection, uri, deadOwner));
  }

  private AssignmentWrite fencedWrite(
      String what, LeaderFence leader, String sql, Binder binder, Applied then) {
    return jdbc.write(
        what,
        connection -> {
          if (count(connection, sql, binder) == 1) {
            then.run(connection);
            return AssignmentWrite.APPLIED;
          }
          return fences.leaderHolds(connection, leader)
              ? AssignmentWrite.NOT_ELIGIBLE
              : AssignmentWrite.FENCED;
        });
  }

  /** Work done in a write's transaction once its row was written. */
  private interface Applied {
    void run(Connection connection) throws SQLException;
  }
}
