package io.tenure.jdbc.internal;

import static io.tenure.jdbc.internal.Updates.count;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.TablePrefix;
import java.sql.PreparedStatement;
import org.jspecify.annotations.Nullable;

/**
 * The writes of {@code <prefix>agents} that no leader fence guards: a node's, scoped by {@code
 * owner_node = me} so that they never touch a peer's row, and the operator's (pause, pin, save).
 */
final class AgentWrites {
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final AgentClaims claims;

  AgentWrites(Jdbc jdbc, TablePrefix prefix, AgentClaims claims) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.claims = claims;
  }

  boolean release(AgentUri uri, String nodeId) {
    String update =
        "UPDATE " + agents + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ?";
    return jdbc.write(
        "release agent " + uri,
        connection -> {
          boolean released =
              count(
                      connection,
                      update,
                      s -> {
                        s.setString(1, uri.toString());
                        s.setString(2, nodeId);
                      })
                  == 1;
          if (released) {
            claims.letGo(connection, uri, nodeId);
          }
          return released;
        });
  }

  boolean removeOwned(AgentUri uri, String nodeId) {
    String delete = "DELETE FROM " + agents + " WHERE agent_uri = ? AND owner_node = ?";
    return jdbc.write(
        "remove agent " + uri,
        connection ->
            count(
                    connection,
                    delete,
                    s -> {
                      s.setString(1, uri.toString());
                      s.setString(2, nodeId);
                    })
                == 1);
  }

  boolean setPaused(AgentUri uri, boolean paused) {
    String update = "UPDATE " + agents + " SET paused = ? WHERE agent_uri = ?";
    return jdbc.write(
        (paused ? "pause" : "resume") + " agent " + uri,
        connection ->
            count(
                    connection,
                    update,
                    s -> {
                      s.setBoolean(1, paused);
                      s.setString(2, uri.toString());
                    })
                == 1);
  }

  boolean pin(AgentUri uri, @Nullable String nodeName) {
    String update = "UPDATE " + agents + " SET pinned_to = ? WHERE agent_uri = ?";
    return jdbc.write(
        "pin agent " + uri,
        connection ->
            count(
                    connection,
                    update,
                    s -> {
                      s.setString(1, nodeName);
                      s.setString(2, uri.toString());
                    })
                == 1);
  }

  void upsert(AgentAssignment assignment) {
    String sql =
        dialect.upsert(
            agents,
            AgentRows.COLUMNS,
            "?, ?, ?, ?, ?, ?",
            "agent_uri",
            "owner_node, target_node, epoch, paused, pinned_to");
    // No row-count check: an upsert's count is dialect-specific (MariaDB reports 2 for an update).
    jdbc.write(
        "save agent " + assignment.uri(),
        connection -> {
          try (PreparedStatement s = connection.prepareStatement(sql)) {
            s.setString(1, assignment.uri().toString());
            s.setString(2, assignment.owner());
            s.setString(3, assignment.target());
            s.setLong(4, assignment.epoch());
            s.setBoolean(5, assignment.paused());
            s.setString(6, assignment.pinnedTo());
            return s.executeUpdate();
          }
        });
  }
}
