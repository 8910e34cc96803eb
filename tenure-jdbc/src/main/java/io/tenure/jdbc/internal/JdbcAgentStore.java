package io.tenure.jdbc.internal;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Agent assignments in {@code <prefix>agents}. Leader writes embed the lease fence in their own
 * SQL; node writes are scoped by {@code owner_node = me} or {@code owner_node IS NULL}.
 */
public final class JdbcAgentStore implements AgentStore {
  private static final String COLUMNS = "agent_uri, owner_node, target_node, epoch, paused, pinned_to";

  /**
   * TEST ONLY, for the fault harness's negative control ({@code tenure chaos --unsafe leader-fence}):
   * leader-only assignment writes no longer carry the leader epoch guard, so a deposed leader's
   * pass is written. Never set this in production.
   */
  static final boolean UNSAFE_SKIP_LEADER_FENCE = Boolean.getBoolean("tenure.unsafe.skipLeaderFence");

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final String nodes;
  private final String fence;
  private final String fenceQuery;

  private final Dialect.ConnectionSource sessions;
  private final Object sessionSource;
  private final String channel;

  /**
   * @param sessions opens connections outside the pools, for PostgreSQL's {@code LISTEN}
   * @param sessionSource identifies the database {@code sessions} reach: stores with an equal one
   *     share one {@code LISTEN} connection in this process
   */
  public JdbcAgentStore(Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions, Object sessionSource) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.sessions = sessions;
    this.sessionSource = sessionSource;
    this.channel = prefix.value() + "agents";
    this.nodes = prefix.table("nodes");
    this.fenceQuery = JdbcLeaseStore.fenceQuery(dialect, prefix);
    this.fence = UNSAFE_SKIP_LEADER_FENCE ? "(EXISTS (" + fenceQuery + ") OR 1 = 1)" : "EXISTS (" + fenceQuery + ")";
  }

  @Override
  public List<AgentAssignment> readAll() {
    return jdbc.read("read agent assignments", connection -> {
      try (PreparedStatement statement =
              connection.prepareStatement("SELECT " + COLUMNS + " FROM " + agents + " ORDER BY agent_uri");
          ResultSet rows = statement.executeQuery()) {
        List<AgentAssignment> found = new ArrayList<>();
        while (rows.next()) {
          found.add(assignment(rows));
        }
        return List.copyOf(found);
      }
    });
  }

  @Override
  public Optional<AgentAssignment> read(AgentUri uri) {
    return jdbc.read("read agent " + uri, connection -> find(connection, uri));
  }

  private Optional<AgentAssignment> find(Connection connection, AgentUri uri) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT " + COLUMNS + " FROM " + agents + " WHERE agent_uri = ?")) {
      statement.setString(1, uri.toString());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(assignment(rows)) : Optional.empty();
      }
    }
  }

  /** Keeps each IN list well under every dialect's parameter limit. */
  private static final int IN_CHUNK = 500;

  @Override
  public List<AgentAssignment> readFor(String nodeId, java.util.Collection<AgentUri> alsoThese) {
    return jdbc.read("read agents of node " + nodeId, connection -> {
      java.util.Map<String, AgentAssignment> found = new java.util.TreeMap<>();
      try (PreparedStatement statement = connection.prepareStatement(
          "SELECT " + COLUMNS + " FROM " + agents + " WHERE owner_node = ? OR target_node = ?")) {
        statement.setString(1, nodeId);
        statement.setString(2, nodeId);
        collect(statement, found);
      }
      List<String> uris = alsoThese.stream().map(AgentUri::toString).filter(u -> !found.containsKey(u)).toList();
      for (int from = 0; from < uris.size(); from += IN_CHUNK) {
        List<String> chunk = uris.subList(from, Math.min(uris.size(), from + IN_CHUNK));
        String in = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
        try (PreparedStatement statement = connection.prepareStatement(
            "SELECT " + COLUMNS + " FROM " + agents + " WHERE agent_uri IN (" + in + ")")) {
          for (int i = 0; i < chunk.size(); i++) {
            statement.setString(i + 1, chunk.get(i));
          }
          collect(statement, found);
        }
      }
      return List.copyOf(found.values());
    });
  }

  private static void collect(PreparedStatement statement, java.util.Map<String, AgentAssignment> found)
      throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        AgentAssignment row = assignment(rows);
        found.put(row.uri().toString(), row);
      }
    }
  }

  @Override
  public AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence leader) {
    String update = "UPDATE " + agents + " SET target_node = ? WHERE agent_uri = ? AND " + fence;
    String insert = dialect.insertIfAbsent(agents, COLUMNS, "?, NULL, ?, 0, ?, NULL", "agent_uri");
    return jdbc.write("place agent " + uri + " on " + target, connection -> {
      for (int attempt = 0; attempt < 2; attempt++) {
        if (count(connection, update, s -> {
              s.setString(1, target);
              s.setString(2, uri.toString());
              JdbcMembershipStore.bindFence(s, 3, leader);
            }) == 1) {
          return AssignmentWrite.APPLIED;
        }
        if (!fenceHolds(connection, leader)) {
          return AssignmentWrite.FENCED;
        }
        if (target == null) {
          return AssignmentWrite.NOT_ELIGIBLE;
        }
        if (insertIfAbsent(connection, insert, s -> {
              s.setString(1, uri.toString());
              s.setString(2, target);
              s.setBoolean(3, false);
            })) {
          return AssignmentWrite.APPLIED;
        }
        // A node restored the row between our update and insert: update it now.
      }
      throw new IllegalStateException("placing agent " + uri + " found its row both absent and present, which indicates a bug");
    }, result -> result == AssignmentWrite.APPLIED);
  }

  @Override
  public AssignmentWrite placeAll(java.util.Map<AgentUri, @Nullable String> targets,
      java.util.Set<AgentUri> onlyIfUnowned, LeaderFence leader) {
    if (targets.isEmpty()) {
      return AssignmentWrite.APPLIED;
    }
    String update = "UPDATE " + agents + " SET target_node = ? WHERE agent_uri = ? AND " + fence;
    // A row claimed since the leader's snapshot keeps its target: its move was planned as free.
    String updateUnowned = "UPDATE " + agents + " SET target_node = ? WHERE agent_uri = ? AND owner_node IS NULL AND "
        + fence;
    String insert = dialect.insertIfAbsent(agents, COLUMNS, "?, NULL, ?, 0, ?, NULL", "agent_uri");
    return jdbc.write("place " + targets.size() + " agents", connection -> {
      if (!fenceHolds(connection, leader)) {
        return AssignmentWrite.FENCED;
      }
      java.util.Set<String> existing = existingUris(connection, targets.keySet());
      try (PreparedStatement statement = connection.prepareStatement(update);
          PreparedStatement unowned = connection.prepareStatement(updateUnowned)) {
        for (java.util.Map.Entry<AgentUri, @Nullable String> entry : targets.entrySet()) {
          if (existing.contains(entry.getKey().toString())) {
            PreparedStatement s = onlyIfUnowned.contains(entry.getKey()) ? unowned : statement;
            s.setString(1, entry.getValue());
            s.setString(2, entry.getKey().toString());
            JdbcMembershipStore.bindFence(s, 3, leader);
            s.addBatch();
          }
        }
        statement.executeBatch();
        unowned.executeBatch();
      }
      List<java.util.Map.Entry<AgentUri, @Nullable String>> inserts = targets.entrySet().stream()
          .filter(entry -> entry.getValue() != null && !existing.contains(entry.getKey().toString()))
          .toList();
      if (dialect.insertIfAbsentReportsDuplicates()) {
        // One at a time: MariaDB reports a concurrent restore as a duplicate-key error.
        for (java.util.Map.Entry<AgentUri, @Nullable String> entry : inserts) {
          insertIfAbsent(connection, insert, s -> {
            s.setString(1, entry.getKey().toString());
            s.setString(2, entry.getValue());
            s.setBoolean(3, false);
          });
        }
      } else if (!inserts.isEmpty()) {
        // ON CONFLICT DO NOTHING: a concurrent restore is skipped, so a cold start is one batch.
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
          for (java.util.Map.Entry<AgentUri, @Nullable String> entry : inserts) {
            statement.setString(1, entry.getKey().toString());
            statement.setString(2, entry.getValue());
            statement.setBoolean(3, false);
            statement.addBatch();
          }
          statement.executeBatch();
        }
      }
      // Re-checked at the end of the transaction: a take-over meanwhile rolls everything back.
      if (!fenceHolds(connection, leader)) {
        return AssignmentWrite.FENCED;
      }
      notifyPlaced(connection, leader);
      return AssignmentWrite.APPLIED;
    }, result -> result == AssignmentWrite.APPLIED);
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

  @Override
  public Optional<AutoCloseable> listen(java.util.function.LongConsumer onPlaced) {
    if (!dialect.supportsNotify()) {
      return Optional.empty();
    }
    return Optional.of(SharedListeners.subscribe(sessionSource, sessions, channel,
        epoch -> onPlaced.accept(Long.parseLong(epoch))));
  }

  private java.util.Set<String> existingUris(Connection connection, java.util.Collection<AgentUri> uris)
      throws SQLException {
    java.util.Set<String> existing = new java.util.HashSet<>();
    List<String> all = uris.stream().map(AgentUri::toString).toList();
    for (int from = 0; from < all.size(); from += IN_CHUNK) {
      List<String> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
      String in = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
      try (PreparedStatement statement =
          connection.prepareStatement("SELECT agent_uri FROM " + agents + " WHERE agent_uri IN (" + in + ")")) {
        for (int i = 0; i < chunk.size(); i++) {
          statement.setString(i + 1, chunk.get(i));
        }
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            existing.add(rows.getString(1));
          }
        }
      }
    }
    return existing;
  }

  @Override
  public AssignmentWrite retire(AgentUri uri, LeaderFence leader) {
    String delete = "DELETE FROM " + agents + " WHERE agent_uri = ? AND owner_node IS NULL AND " + fence;
    return fencedWrite("retire agent " + uri, leader, delete, s -> {
      s.setString(1, uri.toString());
      JdbcMembershipStore.bindFence(s, 2, leader);
    });
  }

  @Override
  public AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence leader) {
    String update = "UPDATE " + agents + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ? AND " + fence
        + " AND NOT EXISTS (SELECT 1 FROM " + nodes + " n WHERE n.node_id = ? AND "
        + dialect.plusMicros("n.heartbeat_at", "n.fence_after_us") + " > " + dialect.now() + ")";
    return fencedWrite("free agent " + uri + " from dead node " + deadOwner, leader, update, s -> {
      s.setString(1, uri.toString());
      s.setString(2, deadOwner);
      JdbcMembershipStore.bindFence(s, 3, leader);
      s.setString(5, deadOwner);
    });
  }

  private AssignmentWrite fencedWrite(String what, LeaderFence leader, String sql, Binder binder) {
    return jdbc.write(what, connection -> {
      if (count(connection, sql, binder) == 1) {
        return AssignmentWrite.APPLIED;
      }
      return fenceHolds(connection, leader) ? AssignmentWrite.NOT_ELIGIBLE : AssignmentWrite.FENCED;
    });
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
    String update = "UPDATE " + agents + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ?";
    return jdbc.write("release agent " + uri, connection -> count(connection, update, s -> {
      s.setString(1, uri.toString());
      s.setString(2, nodeId);
    }) == 1);
  }

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    String update = "UPDATE " + agents + " SET owner_node = ?, epoch = epoch + 1"
        + " WHERE agent_uri = ? AND owner_node IS NULL AND target_node = ? AND paused = ?";
    return jdbc.write("claim agent " + uri, connection -> {
      count(connection, update, s -> {
        s.setString(1, nodeId);
        s.setString(2, uri.toString());
        s.setString(3, nodeId);
        s.setBoolean(4, false);
      });
      return ownedEpoch(connection, uri, nodeId);
    });
  }

  @Override
  public java.util.Map<AgentUri, Long> claimAll(java.util.Collection<AgentUri> uris, String nodeId) {
    if (uris.isEmpty()) {
      return java.util.Map.of();
    }
    List<AgentUri> all = List.copyOf(new java.util.LinkedHashSet<>(uris));
    return jdbc.write("claim " + all.size() + " agents", connection -> {
      // Filled per attempt: a retried transaction starts from nothing.
      java.util.Map<AgentUri, Long> owned = new java.util.LinkedHashMap<>();
      for (int from = 0; from < all.size(); from += IN_CHUNK) {
        List<AgentUri> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
        String in = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
        try (PreparedStatement s = connection.prepareStatement("UPDATE " + agents
            + " SET owner_node = ?, epoch = epoch + 1"
            + " WHERE agent_uri IN (" + in + ") AND owner_node IS NULL AND target_node = ? AND paused = ?")) {
          s.setString(1, nodeId);
          for (int i = 0; i < chunk.size(); i++) {
            s.setString(i + 2, chunk.get(i).toString());
          }
          s.setString(chunk.size() + 2, nodeId);
          s.setBoolean(chunk.size() + 3, false);
          s.executeUpdate();
        }
        try (PreparedStatement statement = connection.prepareStatement("SELECT agent_uri, epoch FROM " + agents
            + " WHERE agent_uri IN (" + in + ") AND owner_node = ?")) {
          for (int i = 0; i < chunk.size(); i++) {
            statement.setString(i + 1, chunk.get(i).toString());
          }
          statement.setString(chunk.size() + 1, nodeId);
          try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
              owned.put(AgentUri.parse(rows.getString(1)), rows.getLong(2));
            }
          }
        }
      }
      return owned;
    });
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    String insert = dialect.insertIfAbsent(agents, COLUMNS, "?, ?, ?, 1, ?, NULL", "agent_uri");
    return jdbc.write("restore agent " + uri, connection -> {
      insertIfAbsent(connection, insert, s -> {
        s.setString(1, uri.toString());
        s.setString(2, nodeId);
        s.setString(3, nodeId);
        s.setBoolean(4, false);
      });
      return ownedEpoch(connection, uri, nodeId);
    });
  }

  private OptionalLong ownedEpoch(Connection connection, AgentUri uri, String nodeId) throws SQLException {
    Optional<AgentAssignment> row = find(connection, uri);
    return row.isPresent() && nodeId.equals(row.get().owner())
        ? OptionalLong.of(row.get().epoch())
        : OptionalLong.empty();
  }

  @Override
  public boolean removeOwned(AgentUri uri, String nodeId) {
    String delete = "DELETE FROM " + agents + " WHERE agent_uri = ? AND owner_node = ?";
    return jdbc.write("remove agent " + uri, connection -> count(connection, delete, s -> {
      s.setString(1, uri.toString());
      s.setString(2, nodeId);
    }) == 1);
  }

  @Override
  public boolean stillOwner(AgentUri uri, String nodeId, long epoch) {
    String sql = "SELECT 1 FROM " + agents + " WHERE agent_uri = ? AND owner_node = ? AND epoch = ?";
    return jdbc.read("check ownership of agent " + uri, connection -> {
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        statement.setString(1, uri.toString());
        statement.setString(2, nodeId);
        statement.setLong(3, epoch);
        try (ResultSet rows = statement.executeQuery()) {
          return rows.next();
        }
      }
    });
  }

  @Override
  public boolean setPaused(AgentUri uri, boolean paused) {
    String update = "UPDATE " + agents + " SET paused = ? WHERE agent_uri = ?";
    return jdbc.write((paused ? "pause" : "resume") + " agent " + uri, connection -> count(connection, update, s -> {
      s.setBoolean(1, paused);
      s.setString(2, uri.toString());
    }) == 1);
  }

  @Override
  public boolean pin(AgentUri uri, @Nullable String nodeName) {
    String update = "UPDATE " + agents + " SET pinned_to = ? WHERE agent_uri = ?";
    return jdbc.write("pin agent " + uri, connection -> count(connection, update, s -> {
      s.setString(1, nodeName);
      s.setString(2, uri.toString());
    }) == 1);
  }

  @Override
  public void upsert(AgentAssignment assignment) {
    String sql = dialect.upsert(agents, COLUMNS, "?, ?, ?, ?, ?, ?", "agent_uri",
        "owner_node, target_node, epoch, paused, pinned_to");
    // No row-count check: an upsert's count is dialect-specific (MariaDB reports 2 for an update).
    jdbc.write("save agent " + assignment.uri(), connection -> {
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

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private static int count(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return JdbcMembershipStore.checkedCount(statement.executeUpdate(), sql);
    }
  }

  private boolean insertIfAbsent(Connection connection, String sql, Binder binder) throws SQLException {
    try {
      return count(connection, sql, binder) == 1;
    } catch (SQLException e) {
      if (dialect.insertIfAbsentReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  private boolean fenceHolds(Connection connection, LeaderFence leader) throws SQLException {
    if (UNSAFE_SKIP_LEADER_FENCE) {
      return true;
    }
    try (PreparedStatement statement = connection.prepareStatement(fenceQuery)) {
      JdbcMembershipStore.bindFence(statement, 1, leader);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  private static AgentAssignment assignment(ResultSet rows) throws SQLException {
    return new AgentAssignment(AgentUri.parse(rows.getString("agent_uri")), rows.getString("owner_node"),
        rows.getString("target_node"), rows.getLong("epoch"), rows.getBoolean("paused"), rows.getString("pinned_to"));
  }
}
