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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent assignments in {@code <prefix>agents}. Leader writes embed the lease fence in their own
 * SQL; node writes are scoped by {@code owner_node = me} or {@code owner_node IS NULL}. Claims and
 * restores, which issue ownership epochs from each agent's epoch record, live in {@link
 * AgentClaims}.
 */
public final class JdbcAgentStore implements AgentStore {
  private static final String COLUMNS =
      "agent_uri, owner_node, target_node, epoch, paused, pinned_to";
  private static final Logger LOG = LoggerFactory.getLogger(JdbcAgentStore.class);

  /**
   * TEST ONLY, for the fault harness's negative control ({@code tenure chaos --unsafe
   * leader-fence}): leader-only assignment writes no longer carry the leader epoch guard, so a
   * deposed leader's pass is written. Never set this in production.
   */
  static final boolean UNSAFE_SKIP_LEADER_FENCE =
      Boolean.getBoolean("tenure.unsafe.skipLeaderFence");

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final String nodes;
  private final AgentClaims claims;
  private final String fence;
  private final String fenceQuery;
  private final Fences fences;

  /** Reads that skipped a row that cannot be read, and the first rows skipped with why. */
  private final java.util.concurrent.atomic.AtomicLong skips =
      new java.util.concurrent.atomic.AtomicLong();

  private final java.util.concurrent.ConcurrentSkipListMap<String, String> skipped =
      new java.util.concurrent.ConcurrentSkipListMap<>();

  private final Dialect.ConnectionSource sessions;
  private final Object sessionSource;
  private final String channel;

  /**
   * @param sessions opens connections outside the pools, for PostgreSQL's {@code LISTEN}
   * @param sessionSource identifies the database {@code sessions} reach: stores with an equal one
   *     share one {@code LISTEN} connection in this process
   */
  public JdbcAgentStore(
      Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions, Object sessionSource) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.claims = new AgentClaims(jdbc, prefix);
    this.sessions = sessions;
    this.sessionSource = sessionSource;
    this.channel = prefix.value() + "agents";
    this.nodes = prefix.table("nodes");
    this.fences = new Fences(dialect, prefix);
    this.fenceQuery = fences.leaderQuery();
    this.fence =
        UNSAFE_SKIP_LEADER_FENCE
            ? "(EXISTS (" + fenceQuery + ") OR 1 = 1)"
            : "EXISTS (" + fenceQuery + ")";
  }

  @Override
  public List<AgentAssignment> readAll() {
    return jdbc.read(
        "read agent assignments",
        connection -> {
          try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT " + COLUMNS + " FROM " + agents + " ORDER BY agent_uri");
              ResultSet rows = statement.executeQuery()) {
            List<AgentAssignment> found = new ArrayList<>();
            while (rows.next()) {
              AgentAssignment row = assignment(rows);
              if (row != null) {
                found.add(row);
              }
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
        connection.prepareStatement(
            "SELECT " + COLUMNS + " FROM " + agents + " WHERE agent_uri = ?")) {
      statement.setString(1, uri.toString());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.ofNullable(assignment(rows)) : Optional.empty();
      }
    }
  }

  private static final int IN_CHUNK = AgentClaims.IN_CHUNK;

  @Override
  public List<AgentAssignment> readFor(String nodeId, java.util.Collection<AgentUri> alsoThese) {
    return jdbc.read(
        "read agents of node " + nodeId,
        connection -> {
          java.util.Map<String, AgentAssignment> found = new java.util.TreeMap<>();
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM "
                      + agents
                      + " WHERE owner_node = ? OR target_node = ?")) {
            statement.setString(1, nodeId);
            statement.setString(2, nodeId);
            collect(statement, found);
          }
          List<String> uris =
              alsoThese.stream()
                  .map(AgentUri::toString)
                  .filter(u -> !found.containsKey(u))
                  .toList();
          for (int from = 0; from < uris.size(); from += IN_CHUNK) {
            List<String> chunk = uris.subList(from, Math.min(uris.size(), from + IN_CHUNK));
            String in = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
            try (PreparedStatement statement =
                connection.prepareStatement(
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

  private void collect(PreparedStatement statement, java.util.Map<String, AgentAssignment> found)
      throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        AgentAssignment row = assignment(rows);
        if (row != null) {
          found.put(row.uri().toString(), row);
        }
      }
    }
  }

  @Override
  public AssignmentWrite place(AgentUri uri, @Nullable String target, LeaderFence leader) {
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
            if (!fenceHolds(connection, leader)) {
              return AssignmentWrite.FENCED;
            }
            if (target == null) {
              return AssignmentWrite.NOT_ELIGIBLE;
            }
            if (insertIfAbsent(connection, insert, s -> bindPlacedRow(s, uri, target))) {
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

  @Override
  public AssignmentWrite placeAll(
      java.util.Map<AgentUri, @Nullable String> targets,
      java.util.Set<AgentUri> onlyIfUnowned,
      LeaderFence leader) {
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
    String insert = placedRow();
    return jdbc.write(
        "place " + targets.size() + " agents",
        connection -> {
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
                Fences.bindLeader(s, 3, leader);
                s.addBatch();
              }
            }
            statement.executeBatch();
            unowned.executeBatch();
          }
          List<java.util.Map.Entry<AgentUri, @Nullable String>> inserts =
              targets.entrySet().stream()
                  .filter(
                      entry ->
                          entry.getValue() != null && !existing.contains(entry.getKey().toString()))
                  .toList();
          if (dialect.insertIfAbsentReportsDuplicates()) {
            // One at a time: MariaDB reports a concurrent restore as a duplicate-key error.
            for (java.util.Map.Entry<AgentUri, @Nullable String> entry : inserts) {
              insertIfAbsent(
                  connection, insert, s -> bindPlacedRow(s, entry.getKey(), entry.getValue()));
            }
          } else if (!inserts.isEmpty()) {
            // ON CONFLICT DO NOTHING: a concurrent restore is skipped, so a cold start is one
            // batch.
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
              for (java.util.Map.Entry<AgentUri, @Nullable String> entry : inserts) {
                bindPlacedRow(statement, entry.getKey(), entry.getValue());
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
        },
        result -> result == AssignmentWrite.APPLIED);
  }

  /** The insert of a placed agent that has no row: as its epoch record has it (see AgentClaims). */
  private String placedRow() {
    return dialect.insertIfAbsent(agents, COLUMNS, claims.placedRow(), "agent_uri");
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

  @Override
  public Optional<AutoCloseable> listen(java.util.function.LongConsumer onPlaced) {
    if (!dialect.supportsNotify()) {
      return Optional.empty();
    }
    return Optional.of(
        SharedListeners.subscribe(
            sessionSource, sessions, channel, epoch -> onPlaced.accept(Long.parseLong(epoch))));
  }

  private java.util.Set<String> existingUris(
      Connection connection, java.util.Collection<AgentUri> uris) throws SQLException {
    java.util.Set<String> existing = new java.util.HashSet<>();
    List<String> all = uris.stream().map(AgentUri::toString).toList();
    for (int from = 0; from < all.size(); from += IN_CHUNK) {
      List<String> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
      String in = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT agent_uri FROM " + agents + " WHERE agent_uri IN (" + in + ")")) {
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
    String delete =
        "DELETE FROM " + agents + " WHERE agent_uri = ? AND owner_node IS NULL AND " + fence;
    return fencedWrite(
        "retire agent " + uri,
        leader,
        delete,
        s -> {
          s.setString(1, uri.toString());
          Fences.bindLeader(s, 2, leader);
        });
  }

  @Override
  public AssignmentWrite releaseFromDeadOwner(AgentUri uri, String deadOwner, LeaderFence leader) {
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

  private AssignmentWrite fencedWrite(String what, LeaderFence leader, String sql, Binder binder) {
    return fencedWrite(what, leader, sql, binder, connection -> {});
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
          return fenceHolds(connection, leader)
              ? AssignmentWrite.NOT_ELIGIBLE
              : AssignmentWrite.FENCED;
        });
  }

  /** Work done in a write's transaction once its row was written. */
  private interface Applied {
    void run(Connection connection) throws SQLException;
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
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

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    Long epoch = claims.claimAll(List.of(uri), nodeId).get(uri);
    return epoch == null ? OptionalLong.empty() : OptionalLong.of(epoch);
  }

  @Override
  public java.util.Map<AgentUri, Long> claimAll(
      java.util.Collection<AgentUri> uris, String nodeId) {
    if (uris.isEmpty()) {
      return java.util.Map.of();
    }
    return claims.claimAll(List.copyOf(new java.util.LinkedHashSet<>(uris)), nodeId);
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    return claims.claimIfAbsent(uri, nodeId);
  }

  @Override
  public boolean removeOwned(AgentUri uri, String nodeId) {
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

  @Override
  public boolean stillOwner(AgentUri uri, String nodeId, long epoch) {
    return jdbc.read(
        "check ownership of agent " + uri,
        connection -> fences.agentHolds(connection, uri, nodeId, epoch, false));
  }

  @Override
  public boolean setPaused(AgentUri uri, boolean paused) {
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

  @Override
  public boolean pin(AgentUri uri, @Nullable String nodeName) {
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

  @Override
  public io.tenure.spi.SkippedRows skippedRows() {
    return new io.tenure.spi.SkippedRows(skips.get(), skipped);
  }

  @Override
  public void upsert(AgentAssignment assignment) {
    String sql =
        dialect.upsert(
            agents,
            COLUMNS,
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

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private static int count(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return JdbcMembershipStore.checkedCount(statement.executeUpdate(), sql);
    }
  }

  private boolean insertIfAbsent(Connection connection, String sql, Binder binder)
      throws SQLException {
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
      Fences.bindLeader(statement, 1, leader);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  /**
   * @return the row, or null for a row that cannot be read as an assignment (written by hand): it
   *     is skipped and reported, so that one such row never fails a read of all the others
   */
  private @Nullable AgentAssignment assignment(ResultSet rows) throws SQLException {
    String key = rows.getString("agent_uri");
    try {
      return new AgentAssignment(
          AgentUri.parse(key),
          rows.getString("owner_node"),
          rows.getString("target_node"),
          rows.getLong("epoch"),
          rows.getBoolean("paused"),
          rows.getString("pinned_to"));
    } catch (IllegalArgumentException e) {
      skip(String.valueOf(key), e.getMessage());
      return null;
    }
  }

  /**
   * Counts a skipped row; warns the first time this store skips it (later reads would repeat it).
   */
  private void skip(String key, String reason) {
    skips.incrementAndGet();
    boolean first =
        skipped.size() < io.tenure.spi.SkippedRows.MAX_ROWS
            && skipped.putIfAbsent(key, reason) == null;
    String shown = key.replaceAll("\\p{Cntrl}", "?");
    if (first) {
      LOG.warn(
          "agent row '{}' in {} cannot be read and is skipped: {}. Every read leaves it out; fix or delete"
              + " the row",
          shown,
          agents,
          reason);
    } else {
      LOG.debug("agent row '{}' in {} skipped again: {}", shown, agents, reason);
    }
  }
}
