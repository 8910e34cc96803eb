package io.tenure.jdbc.internal;

import io.tenure.AgentUri;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The fences every store checks, in one place: the leader's (the lease row names the node at the
 * epoch and has not expired, SPEC §4) and an agent's (the agent row names the node at the epoch,
 * SPEC §5). Both are fail-closed: a missing row refuses the write.
 */
final class Fences {
  private final String leaderQuery;
  private final String agentQuery;
  private final String agentQueryLocked;

  Fences(Dialect dialect, TablePrefix prefix) {
    this.leaderQuery =
        "SELECT 1 FROM "
            + prefix.table("leases")
            + " WHERE name = '"
            + JdbcLeaseStore.LEADER
            + "' AND holder = ? AND epoch = ? AND expires_at > "
            + dialect.now();
    this.agentQuery =
        "SELECT 1 FROM "
            + prefix.table("agents")
            + " WHERE agent_uri = ? AND owner_node = ? AND epoch = ?";
    this.agentQueryLocked = agentQuery + dialect.forUpdate();
  }

  /**
   * @return a query that yields one row exactly when the leader fence is current; its two
   *     parameters, bound by {@link #bindLeader}, are the node id and the epoch. Fenced writes
   *     embed it as {@code EXISTS (...)}.
   */
  String leaderQuery() {
    return leaderQuery;
  }

  /** Binds a leader fence's node and epoch at {@code index} and {@code index + 1}. */
  static void bindLeader(PreparedStatement statement, int index, LeaderFence leader)
      throws SQLException {
    statement.setString(index, leader.nodeId());
    statement.setLong(index + 1, leader.epoch());
  }

  /** Whether {@code leader} is the current leader, read in the caller's transaction. */
  boolean leaderHolds(Connection connection, LeaderFence leader) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(leaderQuery)) {
      bindLeader(statement, 1, leader);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  /**
   * Whether the agent row names the guard's node at the guard's epoch.
   *
   * @param lock on servers, lock the agent row until commit, so the guard holds for the rest of the
   *     caller's transaction
   */
  boolean agentHolds(Connection connection, AgentGuard guard, boolean lock) throws SQLException {
    return agentHolds(connection, guard.agent(), guard.nodeId(), guard.epoch(), lock);
  }

  /** {@link #agentHolds(Connection, AgentGuard, boolean)} for an agent, node and epoch. */
  boolean agentHolds(Connection connection, AgentUri agent, String nodeId, long epoch, boolean lock)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(lock ? agentQueryLocked : agentQuery)) {
      statement.setString(1, agent.toString());
      statement.setString(2, nodeId);
      statement.setLong(3, epoch);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }
}
