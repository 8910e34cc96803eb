package io.tenure.jdbc.internal;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.SkippedRows;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads of {@code <prefix>agents}, in the caller's transaction, and the mapping of a row to an
 * {@link AgentAssignment}. A row that cannot be read (written by hand) is skipped and reported
 * here, so that one such row never fails a read of all the others.
 */
final class AgentRows {
  static final String COLUMNS = "agent_uri, owner_node, target_node, epoch, paused, pinned_to";
  private static final int IN_CHUNK = AgentClaims.IN_CHUNK;
  private static final Logger LOG = LoggerFactory.getLogger(JdbcAgentStore.class);

  private final String agents;

  /** Reads that skipped a row that cannot be read, and the first rows skipped with why. */
  private final AtomicLong skips = new AtomicLong();

  private final ConcurrentSkipListMap<String, String> skipped = new ConcurrentSkipListMap<>();

  AgentRows(TablePrefix prefix) {
    this.agents = prefix.table("agents");
  }

  List<AgentAssignment> readAll(Connection connection) throws SQLException {
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
  }

  Optional<AgentAssignment> find(Connection connection, AgentUri uri) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT " + COLUMNS + " FROM " + agents + " WHERE agent_uri = ?")) {
      statement.setString(1, uri.toString());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.ofNullable(assignment(rows)) : Optional.empty();
      }
    }
  }

  /** The rows {@code nodeId} owns or is the target of, and the rows of {@code alsoThese}. */
  List<AgentAssignment> readFor(
      Connection connection, String nodeId, Collection<AgentUri> alsoThese) throws SQLException {
    Map<String, AgentAssignment> found = new TreeMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT " + COLUMNS + " FROM " + agents + " WHERE owner_node = ? OR target_node = ?")) {
      statement.setString(1, nodeId);
      statement.setString(2, nodeId);
      collect(statement, found);
    }
    List<String> uris =
        alsoThese.stream().map(AgentUri::toString).filter(u -> !found.containsKey(u)).toList();
    for (int from = 0; from < uris.size(); from += IN_CHUNK) {
      List<String> chunk = uris.subList(from, Math.min(uris.size(), from + IN_CHUNK));
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT "
                  + COLUMNS
                  + " FROM "
                  + agents
                  + " WHERE agent_uri IN ("
                  + placeholders(chunk)
                  + ")")) {
        bindAll(statement, chunk);
        collect(statement, found);
      }
    }
    return List.copyOf(found.values());
  }

  /** Which of {@code uris} have a row. */
  Set<String> existingUris(Connection connection, Collection<AgentUri> uris) throws SQLException {
    Set<String> existing = new HashSet<>();
    List<String> all = uris.stream().map(AgentUri::toString).toList();
    for (int from = 0; from < all.size(); from += IN_CHUNK) {
      List<String> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT agent_uri FROM "
                  + agents
                  + " WHERE agent_uri IN ("
                  + placeholders(chunk)
                  + ")")) {
        bindAll(statement, chunk);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            existing.add(rows.getString(1));
          }
        }
      }
    }
    return existing;
  }

  SkippedRows skippedRows() {
    return new SkippedRows(skips.get(), skipped);
  }

  private static String placeholders(List<String> chunk) {
    return String.join(", ", Collections.nCopies(chunk.size(), "?"));
  }

  private static void bindAll(PreparedStatement statement, List<String> chunk) throws SQLException {
    for (int i = 0; i < chunk.size(); i++) {
      statement.setString(i + 1, chunk.get(i));
    }
  }

  private void collect(PreparedStatement statement, Map<String, AgentAssignment> found)
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
        skipped.size() < SkippedRows.MAX_ROWS && skipped.putIfAbsent(key, reason) == null;
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
