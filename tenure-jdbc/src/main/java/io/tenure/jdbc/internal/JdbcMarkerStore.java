package io.tenure.jdbc.internal;

import io.tenure.ContentionException;
import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerKey;
import io.tenure.spi.CreateResult;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Markers in {@code <prefix>markers}, one row per (tenant, resource). */
public final class JdbcMarkerStore implements MarkerStore {
  private static final String COLUMNS = "tenant, resource, state, reason, marked_at";
  private static final String KEY = "tenant, resource";

  /** A concurrent clear can delete the winner's row between our insert and read; that is rare. */
  private static final int CREATE_ATTEMPTS = 10;

  private final Jdbc jdbc;
  private final String table;
  private final String insertIfAbsent;
  private final String upsert;
  private final String select;
  private final String delete;

  public JdbcMarkerStore(Jdbc jdbc, TablePrefix prefix) {
    Dialect dialect = jdbc.dialect();
    this.jdbc = jdbc;
    this.table = prefix.table("markers");
    this.insertIfAbsent =
        dialect.insertIfAbsent(table, COLUMNS, "?, ?, ?, ?, " + dialect.now(), KEY);
    this.upsert = dialect.upsert(table, COLUMNS, "?, ?, ?, ?, ?", KEY, "state, reason, marked_at");
    this.select = "SELECT " + COLUMNS + " FROM " + table;
    this.delete = "DELETE FROM " + table + " WHERE tenant = ? AND resource = ? AND state = ?";
  }

  @Override
  public CreateResult createIfAbsent(MarkerChange change) {
    for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
      Optional<CreateResult> result =
          jdbc.write(
              "create marker " + change.key(), connection -> insertThenRead(connection, change));
      if (result.isPresent()) {
        return result.get();
      }
    }
    throw new ContentionException(
        "marker "
            + change.key()
            + " was deleted between insert and read "
            + CREATE_ATTEMPTS
            + " times in a row; giving up",
        null);
  }

  private Optional<CreateResult> insertThenRead(Connection connection, MarkerChange change)
      throws SQLException {
    boolean inserted = insert(connection, change);
    Optional<Marker> stored = find(connection, change.key());
    if (inserted && stored.isEmpty()) {
      throw new IllegalStateException(
          "marker "
              + change.key()
              + " inserted but not readable in the same transaction indicates a bug");
    }
    // Empty when a concurrent clear removed the row we lost to: the caller tries again.
    return stored.map(marker -> new CreateResult(inserted, marker));
  }

  private boolean insert(Connection connection, MarkerChange change) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(insertIfAbsent)) {
      statement.setString(1, change.key().tenant());
      statement.setString(2, change.key().resource());
      statement.setString(3, change.state());
      statement.setString(4, change.reason());
      int rows = statement.executeUpdate();
      if (rows > 1) {
        throw new IllegalStateException(
            "insert-if-absent of marker "
                + change.key()
                + " touched "
                + rows
                + " rows, which indicates a bug");
      }
      return rows == 1;
    } catch (SQLException e) {
      if (jdbc.dialect().insertIfAbsentReportsDuplicates() && jdbc.dialect().isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public Optional<Marker> find(MarkerKey key) {
    return jdbc.read("read marker " + key, connection -> find(connection, key));
  }

  private Optional<Marker> find(Connection connection, MarkerKey key) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(select + " WHERE tenant = ? AND resource = ?")) {
      statement.setString(1, key.tenant());
      statement.setString(2, key.resource());
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(marker(rows)) : Optional.empty();
      }
    }
  }

  @Override
  public Map<MarkerKey, Marker> findAll(Collection<MarkerKey> keys) {
    if (keys.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "at most " + MAX_BATCH + " keys per findAll, got " + keys.size());
    }
    List<MarkerKey> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
    if (distinct.isEmpty()) {
      return Map.of();
    }
    String sql =
        select
            + " WHERE (tenant, resource) IN ("
            + String.join(", ", java.util.Collections.nCopies(distinct.size(), "(?, ?)"))
            + ")";
    return jdbc.read(
        "read " + distinct.size() + " markers",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = 1;
            for (MarkerKey key : distinct) {
              statement.setString(index++, key.tenant());
              statement.setString(index++, key.resource());
            }
            Map<MarkerKey, Marker> found = new LinkedHashMap<>();
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                Marker marker = marker(rows);
                found.put(marker.key(), marker);
              }
            }
            return found;
          }
        });
  }

  @Override
  public boolean deleteIfState(MarkerKey key, String expectedState) {
    MarkerChange.requireValidState(expectedState);
    return jdbc.write(
        "clear marker " + key,
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(delete)) {
            statement.setString(1, key.tenant());
            statement.setString(2, key.resource());
            statement.setString(3, expectedState);
            int rows = statement.executeUpdate();
            if (rows > 1) {
              throw new IllegalStateException(
                  "clear of marker " + key + " deleted " + rows + " rows, which indicates a bug");
            }
            return rows == 1;
          }
        });
  }

  @Override
  public void upsert(Marker marker) {
    jdbc.write(
        "save marker " + marker.key(),
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(upsert)) {
            statement.setString(1, marker.tenant());
            statement.setString(2, marker.resource());
            statement.setString(3, marker.state());
            statement.setString(4, marker.reason());
            jdbc.dialect().setInstant(statement, 5, marker.markedAt());
            return statement.executeUpdate();
          }
        });
  }

  private Marker marker(ResultSet rows) throws SQLException {
    return new Marker(
        MarkerKey.of(rows.getString("tenant"), rows.getString("resource")),
        rows.getString("state"),
        rows.getString("reason"),
        jdbc.dialect().getInstant(rows, "marked_at"));
  }
}
