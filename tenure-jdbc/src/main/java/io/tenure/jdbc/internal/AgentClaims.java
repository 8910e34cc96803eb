package io.tenure.jdbc.internal;

import io.tenure.AgentUri;
import io.tenure.ContentionException;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * The writes of {@link JdbcAgentStore} that issue ownership epochs (SPEC §5.1): claims and
 * restores, judged against {@code <prefix>agent_epochs}, each agent's record of the last epoch
 * issued and the node holding it, which outlives the agent's row.
 *
 * <p>Every write of a record holds the lock of its agent's row: a claim locks the rows it judges, a
 * restore inserts the row first, a release updates it. So a record read after taking that lock is
 * exact, and a record that changed under a restore means a peer won in between.
 */
final class AgentClaims {
  /** Keeps each IN list well under every dialect's parameter limit. */
  static final int IN_CHUNK = 500;

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String agents;
  private final String epochs;

  AgentClaims(Jdbc jdbc, TablePrefix prefix) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.agents = prefix.table("agents");
    this.epochs = prefix.table("agent_epochs");
  }

  /** A row as a claim judges it, read under its lock. */
  private record Locked(
      @Nullable String owner, @Nullable String target, long epoch, boolean paused) {}

  /**
   * An agent's epoch record: the last epoch issued and the node holding it, or null once released.
   */
  private record Issued(long epoch, @Nullable String owner) {}

  /**
   * What a claim writes for one row: its owner and epoch, and whether that epoch is newly issued.
   */
  private record Claimed(@Nullable String owner, long epoch, boolean issued) {}

  /** See {@link io.tenure.spi.AgentStore#claimAll}. */
  Map<AgentUri, Long> claimAll(List<AgentUri> all, String nodeId) {
    return jdbc.write(
        all.size() == 1 ? "claim agent " + all.get(0) : "claim " + all.size() + " agents",
        connection -> {
          // Filled per attempt: a retried transaction starts from nothing.
          Map<AgentUri, Long> owned = new LinkedHashMap<>();
          for (int from = 0; from < all.size(); from += IN_CHUNK) {
            claimChunk(
                connection,
                all.subList(from, Math.min(all.size(), from + IN_CHUNK)),
                nodeId,
                owned);
          }
          return owned;
        });
  }

  /**
   * Locks the chunk's rows, reads their epoch records, judges each row, writes what changed and
   * puts the rows {@code nodeId} owns afterwards, with their epochs, in {@code owned}.
   */
  private void claimChunk(
      Connection connection, List<AgentUri> chunk, String nodeId, Map<AgentUri, Long> owned)
      throws SQLException {
    List<String> keys = chunk.stream().map(AgentUri::toString).toList();
    Map<String, Locked> rows = lockRows(connection, keys);
    Map<String, Issued> records = issued(connection, List.copyOf(rows.keySet()));
    Map<String, Claimed> changed = new LinkedHashMap<>();
    for (AgentUri uri : chunk) {
      Locked row = rows.get(uri.toString());
      Claimed claimed = row == null ? null : judge(row, records.get(uri.toString()), nodeId);
      if (claimed == null) {
        continue;
      }
      if (!Objects.equals(claimed.owner(), row.owner()) || claimed.epoch() != row.epoch()) {
        changed.put(uri.toString(), claimed);
      }
      if (nodeId.equals(claimed.owner())) {
        owned.put(uri, claimed.epoch());
      }
    }
    writeClaims(connection, changed);
  }

  /**
   * One row of a claim: a free row that targets the claimer and is not paused gets an epoch above
   * the row's and above every epoch issued before. A row the claimer owns keeps the epoch its
   * record issued to it; a row the claimer owns only because someone wrote it so by hand goes back
   * to the node its record says holds the epoch (so two nodes never run it at one epoch, and a
   * hand-off moves it), or, if none does, gets a new epoch.
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

  private Map<String, Locked> lockRows(Connection connection, List<String> keys)
      throws SQLException {
    Map<String, Locked> rows = new HashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT agent_uri, owner_node, target_node, epoch,"
                + " paused FROM "
                + agents
                + " WHERE agent_uri IN ("
                + marks(keys.size())
                + ")"
                + dialect.forUpdate())) {
      bind(statement, keys);
      try (ResultSet found = statement.executeQuery()) {
        while (found.next()) {
          rows.put(
              found.getString(1),
              new Locked(
                  found.getString(2), found.getString(3), found.getLong(4), found.getBoolean(5)));
        }
      }
    }
    return rows;
  }

  /**
   * The epoch records of {@code keys} (at most {@link #IN_CHUNK}); an agent without one is absent.
   */
  private Map<String, Issued> issued(Connection connection, List<String> keys) throws SQLException {
    Map<String, Issued> records = new HashMap<>();
    if (keys.isEmpty()) {
      return records;
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT agent_uri, epoch, owner_node FROM "
                + epochs
                + " WHERE agent_uri IN ("
                + marks(keys.size())
                + ")")) {
      bind(statement, keys);
      try (ResultSet found = statement.executeQuery()) {
        while (found.next()) {
          records.put(found.getString(1), new Issued(found.getLong(2), found.getString(3)));
        }
      }
    }
    return records;
  }

  /**
   * Writes the claimed rows and the epoch records of the epochs newly issued, in one batch each.
   */
  private void writeClaims(Connection connection, Map<String, Claimed> changed)
      throws SQLException {
    if (changed.isEmpty()) {
      return;
    }
    try (PreparedStatement rows =
        connection.prepareStatement(
            "UPDATE " + agents + " SET owner_node = ?, epoch = ? WHERE agent_uri = ?")) {
      for (Map.Entry<String, Claimed> entry : changed.entrySet()) {
        rows.setString(1, entry.getValue().owner());
        rows.setLong(2, entry.getValue().epoch());
        rows.setString(3, entry.getKey());
        rows.addBatch();
      }
      rows.executeBatch();
    }
    Map<String, Claimed> issuedNow = new LinkedHashMap<>();
    changed.forEach(
        (key, claimed) -> {
          if (claimed.issued()) {
            issuedNow.put(key, claimed);
          }
        });
    record(connection, issuedNow);
  }

  /**
   * Sets the epoch records of {@code claimed} (last writer wins: the caller holds each row's lock).
   */
  private void record(Connection connection, Map<String, Claimed> claimed) throws SQLException {
    if (claimed.isEmpty()) {
      return;
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            dialect.upsert(
                epochs,
                "agent_uri, epoch, owner_node",
                "?, ?, ?",
                "agent_uri",
                "epoch, owner_node"))) {
      for (Map.Entry<String, Claimed> entry : claimed.entrySet()) {
        statement.setString(1, entry.getKey());
        statement.setLong(2, entry.getValue().epoch());
        statement.setString(3, entry.getValue().owner());
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  /** See {@link io.tenure.spi.AgentStore#claimIfAbsent}. */
  OptionalLong claimIfAbsent(AgentUri uri, String nodeId) {
    String insert =
        dialect.insertIfAbsent(
            agents,
            "agent_uri, owner_node, target_node, epoch, paused, pinned_to",
            "?, ?, ?, ?, ?, NULL",
            "agent_uri");
    String key = uri.toString();
    return jdbc.write(
        "restore agent " + uri,
        connection -> {
          Issued before = issued(connection, List.of(key)).get(key);
          // The node holding the agent's epoch keeps it; a restorer that does not hold it gets
          // nothing
          // (its copy is the stale one) unless nobody does, and then an epoch above every one
          // before.
          Claimed restored =
              before != null && before.owner() != null
                  ? new Claimed(before.owner(), before.epoch(), false)
                  : new Claimed(nodeId, (before == null ? 0 : before.epoch()) + 1, true);
          if (!insertIfAbsent(connection, insert, key, restored)) {
            return ownedEpoch(connection, key, nodeId);
          }
          // The new row's lock is ours until commit, and every record write takes the row's lock: a
          // record other than the one read means a peer claimed and lost the row in between.
          if (!Objects.equals(issued(connection, List.of(key)).get(key), before)) {
            throw new ContentionException(
                "restoring agent " + uri + " raced with a claim of it", null);
          }
          if (restored.issued()) {
            record(connection, Map.of(key, restored));
          }
          return nodeId.equals(restored.owner())
              ? OptionalLong.of(restored.epoch())
              : OptionalLong.empty();
        });
  }

  private boolean insertIfAbsent(Connection connection, String sql, String key, Claimed row)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, key);
      statement.setString(2, row.owner());
      statement.setString(3, row.owner());
      statement.setLong(4, row.epoch());
      statement.setBoolean(5, false);
      return JdbcMembershipStore.checkedCount(statement.executeUpdate(), sql) == 1;
    } catch (SQLException e) {
      if (dialect.insertIfAbsentReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  /** The row's epoch if {@code nodeId} owns it at the epoch its record issued to it. */
  private OptionalLong ownedEpoch(Connection connection, String key, String nodeId)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT owner_node, epoch FROM " + agents + " WHERE agent_uri = ?")) {
      statement.setString(1, key);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next() || !nodeId.equals(row.getString(1))) {
          return OptionalLong.empty();
        }
        long epoch = row.getLong(2);
        Issued record = issued(connection, List.of(key)).get(key);
        return record != null && nodeId.equals(record.owner()) && record.epoch() == epoch
            ? OptionalLong.of(epoch)
            : OptionalLong.empty();
      }
    }
  }

  /** The epoch record stops naming {@code owner} as the holder once its row is freed. */
  void letGo(Connection connection, AgentUri uri, String owner) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "UPDATE " + epochs + " SET owner_node = NULL WHERE agent_uri = ? AND owner_node = ?")) {
      statement.setString(1, uri.toString());
      statement.setString(2, owner);
      statement.executeUpdate();
    }
  }

  /**
   * The values of a placed agent's insert that has no row: unowned at epoch 0 if it never had an
   * epoch, else as its epoch record has it (a row deleted under its owner comes back to that owner,
   * at its epoch), so the next claim issues an epoch above every one issued before. Binds the URI
   * at 1, 2 and 4, the target at 3, {@code paused} at 5.
   */
  String placedRow() {
    String record = " FROM " + epochs + " e WHERE e.agent_uri = ?)";
    return "?, (SELECT e.owner_node"
        + record
        + ", ?, COALESCE((SELECT e.epoch"
        + record
        + ", 0), ?, NULL";
  }

  private static String marks(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }

  private static void bind(PreparedStatement statement, List<String> keys) throws SQLException {
    for (int i = 0; i < keys.size(); i++) {
      statement.setString(i + 1, keys.get(i));
    }
  }
}
