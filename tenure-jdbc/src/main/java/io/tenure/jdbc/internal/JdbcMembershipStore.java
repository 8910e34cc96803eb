package io.tenure.jdbc.internal;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Node rows in {@code <prefix>nodes} and the version in {@code <prefix>membership}. Every status
 * change is one transaction: a compare-and-swap on the version, then the row write; either failing
 * rolls both back.
 */
public final class JdbcMembershipStore implements MembershipStore {
  private static final java.util.function.Predicate<MembershipWrite> APPLIED_ONLY =
      result -> result == MembershipWrite.APPLIED;

  private final Jdbc jdbc;
  private final Jdbc heartbeats;
  private final Dialect dialect;
  private final String nodes;
  private final String membership;
  private final String bumpVersion;
  private final String fence;
  private final Fences fences;

  /**
   * @param heartbeats an executor with its own connections and statement timeout, so heartbeats
   *     never queue behind other work
   */
  public JdbcMembershipStore(Jdbc jdbc, Jdbc heartbeats, TablePrefix prefix) {
    this.jdbc = jdbc;
    this.heartbeats = heartbeats;
    this.dialect = jdbc.dialect();
    this.nodes = prefix.table("nodes");
    this.membership = prefix.table("membership");
    this.bumpVersion =
        "UPDATE " + membership + " SET version = version + 1 WHERE id = 1 AND version = ?";
    this.fences = new Fences(dialect, prefix);
    this.fence = "EXISTS (" + fences.leaderQuery() + ")";
  }

  @Override
  public MembershipView read() {
    String sql =
        "SELECT m.version AS membership_version, "
            + dialect.now()
            + " AS read_at, n.* FROM "
            + membership
            + " m LEFT JOIN "
            + nodes
            + " n ON 1 = 1 WHERE m.id = 1"
            + " ORDER BY n.started_at, n.node_id";
    // One statement, so the version and the rows come from one snapshot on every database.
    return jdbc.read(
        "read membership",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql);
              ResultSet rows = statement.executeQuery()) {
            long version = 0;
            Instant readAt = Instant.EPOCH;
            List<NodeInfo> found = new ArrayList<>();
            while (rows.next()) {
              version = rows.getLong("membership_version");
              readAt = dialect.getInstant(rows, "read_at");
              if (rows.getString("node_id") != null) {
                found.add(Rows.node(dialect, rows));
              }
            }
            return new MembershipView(version, found, readAt);
          }
        });
  }

  @Override
  public long version() {
    String sql = "SELECT version FROM " + membership + " WHERE id = 1";
    return jdbc.read(
        "read membership version",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql);
              ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getLong(1) : 0L;
          }
        });
  }

  /** Where a status change gets the version its compare-and-swap is conditional on. */
  @FunctionalInterface
  private interface VersionRead {
    long in(Connection connection) throws SQLException;
  }

  @Override
  public MembershipWrite join(NewNode node, long expectedVersion) {
    return join(node, connection -> expectedVersion);
  }

  @Override
  public MembershipWrite joinQueued(NewNode node) {
    return join(node, this::lockedVersion);
  }

  private MembershipWrite join(NewNode node, VersionRead version) {
    String insert =
        dialect.insertIfAbsent(
            nodes,
            Rows.NODE_COLUMNS,
            "?, ?, ?, ?, 'JOINING', " + dialect.now() + ", " + dialect.now() + ", ?, 1",
            "node_id");
    return jdbc.write(
        "join node " + node.nodeId(),
        connection -> {
          if (!casVersion(connection, version.in(connection))) {
            return MembershipWrite.STALE_VERSION;
          }
          if (!insertNode(connection, insert, node)) {
            return MembershipWrite.DUPLICATE_NODE;
          }
          return MembershipWrite.APPLIED;
        },
        APPLIED_ONLY);
  }

  private boolean insertNode(Connection connection, String insert, NewNode node)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(insert)) {
      statement.setString(1, node.nodeId());
      statement.setString(2, node.name());
      statement.setString(3, node.address());
      statement.setString(4, Rows.capabilities(node.capabilities()));
      statement.setLong(5, Rows.micros(node.selfFenceAfter()));
      return checkedCount(statement.executeUpdate(), "insert node " + node.nodeId()) == 1;
    } catch (SQLException e) {
      if (dialect.insertIfAbsentReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public MembershipWrite changeStatus(String nodeId, NodeStatus to, long expectedVersion) {
    return changeStatus(nodeId, to, connection -> expectedVersion);
  }

  @Override
  public MembershipWrite changeStatusQueued(String nodeId, NodeStatus to) {
    return changeStatus(nodeId, to, this::lockedVersion);
  }

  private MembershipWrite changeStatus(String nodeId, NodeStatus to, VersionRead version) {
    Set<NodeStatus> from = MembershipStore.selfChangeSources(to);
    String update =
        "UPDATE "
            + nodes
            + " SET status = ?, row_version = row_version + 1 WHERE node_id = ? AND status IN ("
            + from.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "))
            + ")";
    return jdbc.write(
        "change status of node " + nodeId + " to " + to,
        connection -> {
          if (!casVersion(connection, version.in(connection))) {
            return MembershipWrite.STALE_VERSION;
          }
          try (PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setString(1, to.name());
            statement.setString(2, nodeId);
            return checkedCount(statement.executeUpdate(), "status change of " + nodeId) == 1
                ? MembershipWrite.APPLIED
                : MembershipWrite.NOT_ELIGIBLE;
          }
        },
        APPLIED_ONLY);
  }

  @Override
  public MembershipWrite remove(String nodeId, long expectedVersion) {
    return remove(nodeId, connection -> expectedVersion);
  }

  @Override
  public MembershipWrite removeQueued(String nodeId) {
    return remove(nodeId, this::lockedVersion);
  }

  private MembershipWrite remove(String nodeId, VersionRead version) {
    return jdbc.write(
        "remove node " + nodeId,
        connection -> {
          if (!casVersion(connection, version.in(connection))) {
            return MembershipWrite.STALE_VERSION;
          }
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM " + nodes + " WHERE node_id = ?")) {
            statement.setString(1, nodeId);
            return checkedCount(statement.executeUpdate(), "removal of " + nodeId) == 1
                ? MembershipWrite.APPLIED
                : MembershipWrite.NOT_ELIGIBLE;
          }
        },
        APPLIED_ONLY);
  }

  @Override
  public boolean heartbeat(String nodeId) {
    String sql =
        "UPDATE "
            + nodes
            + " SET heartbeat_at = "
            + dialect.now()
            + ", row_version = row_version + 1 WHERE node_id = ? AND status <> 'DEAD'";
    return heartbeats.read(
        "heartbeat of node " + nodeId,
        connection -> {
          try (PreparedStatement statement = heartbeats.prepare(connection, sql)) {
            statement.setString(1, nodeId);
            return checkedCount(statement.executeUpdate(), "heartbeat of " + nodeId) == 1;
          }
        });
  }

  @Override
  public List<NodeInfo> findStale(Duration staleAfter) {
    return select(
        "status IN ('JOINING', 'ACTIVE') AND heartbeat_at < " + dialect.nowMinusMicros(),
        staleAfter,
        Integer.MAX_VALUE);
  }

  @Override
  public MembershipWrite declareDead(
      String nodeId, Duration staleAfter, long expectedVersion, LeaderFence leader) {
    String fencedBump = bumpVersion + " AND " + fence;
    String update =
        "UPDATE "
            + nodes
            + " SET status = 'DEAD', row_version = row_version + 1"
            + " WHERE node_id = ? AND node_id <> ? AND status IN ('JOINING', 'ACTIVE') AND heartbeat_at < "
            + dialect.nowMinusMicros();
    return jdbc.write(
        "declare node " + nodeId + " dead",
        connection -> {
          try (PreparedStatement bump = connection.prepareStatement(fencedBump)) {
            bump.setLong(1, expectedVersion);
            Fences.bindLeader(bump, 2, leader);
            if (checkedCount(bump.executeUpdate(), "fenced version bump") == 0) {
              return fences.leaderHolds(connection, leader)
                  ? MembershipWrite.STALE_VERSION
                  : MembershipWrite.FENCED;
            }
          }
          try (PreparedStatement statement = connection.prepareStatement(update)) {
            statement.setString(1, nodeId);
            statement.setString(2, leader.nodeId());
            statement.setLong(3, Rows.micros(staleAfter));
            return checkedCount(statement.executeUpdate(), "death of " + nodeId) == 1
                ? MembershipWrite.APPLIED
                : MembershipWrite.NOT_ELIGIBLE;
          }
        },
        APPLIED_ONLY);
  }

  @Override
  public List<NodeInfo> findDefunct(Duration olderThan, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    return select(
        "status <> 'ACTIVE' AND heartbeat_at < " + dialect.nowMinusMicros(), olderThan, limit);
  }

  @Override
  public int deleteDefunct(List<NodeInfo> rows, Duration olderThan, LeaderFence leader) {
    if (rows.isEmpty()) {
      return 0;
    }
    String delete =
        "DELETE FROM "
            + nodes
            + " WHERE node_id = ? AND row_version = ? AND status <> 'ACTIVE'"
            + " AND heartbeat_at < "
            + dialect.nowMinusMicros()
            + " AND "
            + fence;
    return jdbc.write(
        "delete " + rows.size() + " defunct nodes",
        connection -> {
          int deleted = 0;
          try (PreparedStatement statement = connection.prepareStatement(delete)) {
            for (NodeInfo row : rows) {
              statement.setString(1, row.nodeId());
              statement.setLong(2, row.rowVersion());
              statement.setLong(3, Rows.micros(olderThan));
              Fences.bindLeader(statement, 4, leader);
              deleted += checkedCount(statement.executeUpdate(), "delete defunct " + row.nodeId());
            }
          }
          return deleted;
        });
  }

  private List<NodeInfo> select(String condition, Duration age, int limit) {
    String sql =
        "SELECT "
            + Rows.NODE_COLUMNS
            + " FROM "
            + nodes
            + " WHERE "
            + condition
            + " ORDER BY heartbeat_at, node_id"
            + (limit == Integer.MAX_VALUE ? "" : " LIMIT " + limit);
    return jdbc.read(
        "read nodes",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, Rows.micros(age));
            List<NodeInfo> found = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                found.add(Rows.node(dialect, rows));
              }
            }
            return Collections.unmodifiableList(found);
          }
        });
  }

  /**
   * The version, read in the caller's transaction under a row lock held until it ends (SQLite's
   * write transaction is already exclusive): concurrent joiners queue here instead of failing their
   * compare-and-swap and retrying with back-off.
   */
  private long lockedVersion(Connection connection) throws SQLException {
    String sql = "SELECT version FROM " + membership + " WHERE id = 1" + dialect.forUpdate();
    try (PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      return rows.next() ? rows.getLong(1) : 0L;
    }
  }

  private boolean casVersion(Connection connection, long expectedVersion) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(bumpVersion)) {
      statement.setLong(1, expectedVersion);
      return checkedCount(statement.executeUpdate(), "membership version bump") == 1;
    }
  }

  static int checkedCount(int rows, String what) {
    if (rows > 1) {
      throw new IllegalStateException(what + " touched " + rows + " rows, which indicates a bug");
    }
    return rows;
  }
}
