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
 * SQL; node writes are scoped by {@code owner_node = me} or {@code owner_node IS NULL}.
 *
 * <p>{@code <prefix>agent_epochs} records, per agent, the last ownership epoch issued and the node
 * holding it; it outlives the agent's row. Every write of that record holds the lock of the
 * agent's row (a claim locks the rows it judges, a restore inserts the row first, a release
 * updates it), so a record read after taking that lock is exact.
 */
public final class JdbcAgentStore implements AgentStore {
  private static final String COLUMNS = "agent_uri, owner_node, target_node, epoch, paused, pinned_to";
  private static final Logger LOG = LoggerFactory.getLogger(JdbcAgentStore.class);

  /**
   * TEST ONLY, for the fault harness's negative control ({@code tenure chaos --unsafe leader-fence}):
   * leader-only assignment writes no longer carry the leader epoch guard, so a deposed leader's
   * pass is written. Never set this in production.
   */
  static final boolean UNSAFE_SKIP_LEADER_FENCE = Boolean.getBoolean("tenure.unsafe.skipLeaderFence");

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final String epochs;
  private final String nodes;
  private final String fence;
  private final String fenceQuery;

  /** Reads that skipped a row that cannot be read, and the first rows skipped with why. */
  private final java.util.concurrent.atomic.AtomicLong skips = new java.util.concurrent.atomic.AtomicLong();
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
  public JdbcAgentStore(Jdbc jdbc, TablePrefix prefix, Dialect.ConnectionSource sessions, Object sessionSource) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.epochs = prefix.table("agent_epochs");
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
        connection.prepareStatement("SELECT " + COLUMNS + " FROM " + agents + " WHERE agent_uri = ?")) {
      statement.setString(1, uri.toString());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.ofNullable(assignment(rows)) : Optional.empty();
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
        if (insertIfAbsent(connection, insert, s -> bindPlacedRow(s, uri, target))) {
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
    String insert = placedRow();
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
          insertIfAbsent(connection, insert, s -> bindPlacedRow(s, entry.getKey(), entry.getValue()));
        }
      } else if (!inserts.isEmpty()) {
        // ON CONFLICT DO NOTHING: a concurrent restore is skipped, so a cold start is one batch.
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
    }, result -> result == AssignmentWrite.APPLIED);
  }

  /**
   * The insert of a placed agent that has no row: unowned at epoch 0 if it never had an epoch,
   * else as its epoch record has it (a row deleted under its owner comes back to that owner, at
   * its epoch), so the next claim issues an epoch above every one issued before.
   */
  private String placedRow() {
    String record = " FROM " + epochs + " e WHERE e.agent_uri = ?)";
    return dialect.insertIfAbsent(agents, COLUMNS, "?, (SELECT e.owner_node" + record + ", ?, COALESCE((SELECT e.epoch"
        + record + ", 0), ?, NULL", "agent_uri");
  }

  private static void bindPlacedRow(PreparedStatement statement, AgentUri uri, @Nullable String target)
      throws SQLException {
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
    }, connection -> letGo(connection, uri, deadOwner));
  }

  private AssignmentWrite fencedWrite(String what, LeaderFence leader, String sql, Binder binder) {
    return fencedWrite(what, leader, sql, binder, connection -> { });
  }

  private AssignmentWrite fencedWrite(String what, LeaderFence leader, String sql, Binder binder, Applied then) {
    return jdbc.write(what, connection -> {
      if (count(connection, sql, binder) == 1) {
        then.run(connection);
        return AssignmentWrite.APPLIED;
      }
      return fenceHolds(connection, leader) ? AssignmentWrite.NOT_ELIGIBLE : AssignmentWrite.FENCED;
    });
  }

  /** Work done in a write's transaction once its row was written. */
  private interface Applied {
    void run(Connection connection) throws SQLException;
  }

  /** The epoch record stops naming {@code owner} as the holder once its row is freed. */
  private void letGo(Connection connection, AgentUri uri, String owner) throws SQLException {
    count(connection, "UPDATE " + epochs + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ?", s -> {
      s.setString(1, uri.toString());
      s.setString(2, owner);
    });
  }

  @Override
  public boolean release(AgentUri uri, String nodeId) {
    String update = "UPDATE " + agents + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ?";
    return jdbc.write("release agent " + uri, connection -> {
      boolean released = count(connection, update, s -> {
        s.setString(1, uri.toString());
        s.setString(2, nodeId);
      }) == 1;
      if (released) {
        letGo(connection, uri, nodeId);
      }
      return released;
    });
  }

  @Override
  public OptionalLong claim(AgentUri uri, String nodeId) {
    Long epoch = claimAll(List.of(uri), nodeId).get(uri);
    return epoch == null ? OptionalLong.empty() : OptionalLong.of(epoch);
  }

  @Override
  public java.util.Map<AgentUri, Long> claimAll(java.util.Collection<AgentUri> uris, String nodeId) {
    if (uris.isEmpty()) {
      return java.util.Map.of();
    }
    List<AgentUri> all = List.copyOf(new java.util.LinkedHashSet<>(uris));
    return jdbc.write((all.size() == 1 ? "claim agent " + all.get(0) : "claim " + all.size() + " agents"), connection -> {
      // Filled per attempt: a retried transaction starts from nothing.
      java.util.Map<AgentUri, Long> owned = new java.util.LinkedHashMap<>();
      for (int from = 0; from < all.size(); from += IN_CHUNK) {
        claimChunk(connection, all.subList(from, Math.min(all.size(), from + IN_CHUNK)), nodeId, owned);
      }
      return owned;
    });
  }

  /** A row as a claim judges it, read under its lock. */
  private record Locked(@Nullable String owner, @Nullable String target, long epoch, boolean paused) {}

  /** An agent's epoch record: the last epoch issued and the node holding it, or null once released. */
  private record Issued(long epoch, @Nullable String owner) {}

  /** What a claim writes for one row: its owner and epoch, and whether that epoch is newly issued. */
  private record Claimed(@Nullable String owner, long epoch, boolean issued) {}

  /**
   * Locks the chunk's rows, reads their epoch records, judges each row, writes what changed and
   * puts the rows {@code nodeId} owns afterwards, with their epochs, in {@code owned}.
   */
  private void claimChunk(Connection connection, List<AgentUri> chunk, String nodeId,
      java.util.Map<AgentUri, Long> owned) throws SQLException {
    List<String> keys = chunk.stream().map(AgentUri::toString).toList();
    java.util.Map<String, Locked> rows = lockRows(connection, keys);
    java.util.Map<String, Issued> records = issued(connection, List.copyOf(rows.keySet()));
    java.util.Map<String, Claimed> changed = new java.util.LinkedHashMap<>();
    for (AgentUri uri : chunk) {
      Locked row = rows.get(uri.toString());
      Claimed claimed = row == null ? null : judge(row, records.get(uri.toString()), nodeId);
      if (claimed == null) {
        continue;
      }
      if (!java.util.Objects.equals(claimed.owner(), row.owner()) || claimed.epoch() != row.epoch()) {
        changed.put(uri.toString(), claimed);
      }
      if (nodeId.equals(claimed.owner())) {
        owned.put(uri, claimed.epoch());
      }
    }
    writeClaims(connection, changed);
  }

  /**
   * One row of a claim (SPEC §5.1): a free row that targets the claimer and is not paused gets an
   * epoch above the row's and above every epoch issued before. A row the claimer owns keeps the
   * epoch its record issued to it; a row the claimer owns only because someone wrote it so by hand
   * goes back to the node its record says holds the epoch (so two nodes never run it at one
   * epoch, and a hand-off moves it), or, if none does, gets a new epoch.
   *
   * @return what to write, or null if the claim leaves the row alone
   */
  private static @Nullable Claimed judge(Locked row, @Nullable Issued record, String nodeId) {
    long next = Math.max(row.epoch(), record == null ? 0 : record.epoch()) + 1;
    if (nodeId.equals(row.owner())) {
      if (record != null && nodeId.equals(record.owner())) {
        return new Claimed(nodeId, record.epoch(), false);
      }
      if (record != null && record.owner() != null) {
        return new Claimed(record.owner(), record.epoch(), false);
      }
      return new Claimed(nodeId, next, true);
    }
    if (row.owner() == null && nodeId.equals(row.target()) && !row.paused()) {
      return new Claimed(nodeId, next, true);
    }
    return null;
  }

  private java.util.Map<String, Locked> lockRows(Connection connection, List<String> keys) throws SQLException {
    java.util.Map<String, Locked> rows = new java.util.HashMap<>();
    String in = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
    try (PreparedStatement statement = connection.prepareStatement("SELECT agent_uri, owner_node, target_node, epoch,"
        + " paused FROM " + agents + " WHERE agent_uri IN (" + in + ")" + dialect.forUpdate())) {
      for (int i = 0; i < keys.size(); i++) {
        statement.setString(i + 1, keys.get(i));
      }
      try (ResultSet found = statement.executeQuery()) {
        while (found.next()) {
          rows.put(found.getString(1), new Locked(found.getString(2), found.getString(3), found.getLong(4),
              found.getBoolean(5)));
        }
      }
    }
    return rows;
  }

  /** The epoch records of {@code keys} (at most {@link #IN_CHUNK}); an agent without one is absent. */
  private java.util.Map<String, Issued> issued(Connection connection, List<String> keys) throws SQLException {
    java.util.Map<String, Issued> records = new java.util.HashMap<>();
    if (keys.isEmpty()) {
      return records;
    }
    String in = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT agent_uri, epoch, owner_node FROM " + epochs + " WHERE agent_uri IN (" + in + ")")) {
      for (int i = 0; i < keys.size(); i++) {
        statement.setString(i + 1, keys.get(i));
      }
      try (ResultSet found = statement.executeQuery()) {
        while (found.next()) {
          records.put(found.getString(1), new Issued(found.getLong(2), found.getString(3)));
        }
      }
    }
    return records;
  }

  /** Writes the claimed rows and the epoch records of the epochs newly issued, in one batch each. */
  private void writeClaims(Connection connection, java.util.Map<String, Claimed> changed) throws SQLException {
    if (changed.isEmpty()) {
      return;
    }
    try (PreparedStatement rows = connection.prepareStatement(
        "UPDATE " + agents + " SET owner_node = ?, epoch = ? WHERE agent_uri = ?")) {
      for (java.util.Map.Entry<String, Claimed> entry : changed.entrySet()) {
        rows.setString(1, entry.getValue().owner());
        rows.setLong(2, entry.getValue().epoch());
        rows.setString(3, entry.getKey());
        rows.addBatch();
      }
      rows.executeBatch();
    }
    java.util.Map<String, Claimed> issuedNow = new java.util.LinkedHashMap<>();
    changed.forEach((key, claimed) -> {
      if (claimed.issued()) {
        issuedNow.put(key, claimed);
      }
    });
    record(connection, issuedNow);
  }

  /** Sets the epoch records of {@code claimed} (last writer wins: the caller holds each row's lock). */
  private void record(Connection connection, java.util.Map<String, Claimed> claimed) throws SQLException {
    if (claimed.isEmpty()) {
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement(
        dialect.upsert(epochs, "agent_uri, epoch, owner_node", "?, ?, ?", "agent_uri", "epoch, owner_node"))) {
      for (java.util.Map.Entry<String, Claimed> entry : claimed.entrySet()) {
        statement.setString(1, entry.getKey());
        statement.setLong(2, entry.getValue().epoch());
        statement.setString(3, entry.getValue().owner());
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  @Override
  public OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    String insert = dialect.insertIfAbsent(agents, COLUMNS, "?, ?, ?, ?, ?, NULL", "agent_uri");
    String key = uri.toString();
    return jdbc.write("restore agent " + uri, connection -> {
      Issued before = issued(connection, List.of(key)).get(key);
      // The node holding the agent's epoch keeps it; a restorer that does not hold it gets nothing
      // (its copy is the stale one) unless nobody does, and then an epoch above every one before.
      Claimed restored = before != null && before.owner() != null
          ? new Claimed(before.owner(), before.epoch(), false)
          : new Claimed(nodeId, (before == null ? 0 : before.epoch()) + 1, true);
      boolean inserted = insertIfAbsent(connection, insert, s -> {
        s.setString(1, key);
        s.setString(2, restored.owner());
        s.setString(3, restored.owner());
        s.setLong(4, restored.epoch());
        s.setBoolean(5, false);
      });
      if (!inserted) {
        return ownedEpoch(connection, uri, nodeId);
      }
      // The new row's lock is ours until commit, and every record write takes the row's lock: a
      // record other than the one read means a peer claimed and lost the row in between.
      if (!java.util.Objects.equals(issued(connection, List.of(key)).get(key), before)) {
        throw new io.tenure.ContentionException("restoring agent " + uri + " raced with a claim of it", null);
      }
      if (restored.issued()) {
        record(connection, java.util.Map.of(key, restored));
      }
      return nodeId.equals(restored.owner()) ? OptionalLong.of(restored.epoch()) : OptionalLong.empty();
    });
  }

  /** The row's epoch if {@code nodeId} owns it at the epoch its record issued to it. */
  private OptionalLong ownedEpoch(Connection connection, AgentUri uri, String nodeId) throws SQLException {
    Optional<AgentAssignment> row = find(connection, uri);
    if (row.isEmpty() || !nodeId.equals(row.get().owner())) {
      return OptionalLong.empty();
    }
    Issued record = issued(connection, List.of(uri.toString())).get(uri.toString());
    return record != null && nodeId.equals(record.owner()) && record.epoch() == row.get().epoch()
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
  public io.tenure.spi.SkippedRows skippedRows() {
    return new io.tenure.spi.SkippedRows(skips.get(), skipped);
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

  /**
   * @return the row, or null for a row that cannot be read as an assignment (written by hand): it is
   *     skipped and reported, so that one such row never fails a read of all the others
   */
  private @Nullable AgentAssignment assignment(ResultSet rows) throws SQLException {
    String key = rows.getString("agent_uri");
    try {
      return new AgentAssignment(AgentUri.parse(key), rows.getString("owner_node"), rows.getString("target_node"),
          rows.getLong("epoch"), rows.getBoolean("paused"), rows.getString("pinned_to"));
    } catch (IllegalArgumentException e) {
      skip(String.valueOf(key), e.getMessage());
      return null;
    }
  }

  /** Counts a skipped row; warns the first time this store skips it (later reads would repeat it). */
  private void skip(String key, String reason) {
    skips.incrementAndGet();
    boolean first = skipped.size() < io.tenure.spi.SkippedRows.MAX_ROWS && skipped.putIfAbsent(key, reason) == null;
    String shown = key.replaceAll("\\p{Cntrl}", "?");
    if (first) {
      LOG.warn("agent row '{}' in {} cannot be read and is skipped: {}. Every read leaves it out; fix or delete"
          + " the row", shown, agents, reason);
    } else {
      LOG.debug("agent row '{}' in {} skipped again: {}", shown, agents, reason);
    }
  }
}
