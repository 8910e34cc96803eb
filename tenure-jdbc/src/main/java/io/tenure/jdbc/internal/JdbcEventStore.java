package io.tenure.jdbc.internal;

import io.tenure.ClusterEvent;
import io.tenure.spi.EventStore;
import io.tenure.spi.TablePrefix;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The cluster history in {@code <prefix>events}; ids grow with time of writing. */
public final class JdbcEventStore implements EventStore {
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String events;

  public JdbcEventStore(Jdbc jdbc, TablePrefix prefix) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.events = prefix.table("events");
  }

  @Override
  public void append(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail) {
    appendAll(List.of(new NewEvent(kind, nodeId, epoch, detail)));
  }

  @Override
  public void appendAll(List<NewEvent> batch) {
    if (batch.isEmpty()) {
      return;
    }
    String sql =
        "INSERT INTO "
            + events
            + " (at, kind, node_id, epoch, detail) VALUES ("
            + dialect.now()
            + ", ?, ?, ?, ?)";
    jdbc.write(
        batch.size() == 1
            ? "record event " + batch.get(0).kind()
            : "record " + batch.size() + " events",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (NewEvent event : batch) {
              String detail = event.detail();
              statement.setString(1, event.kind().name());
              statement.setString(2, event.nodeId());
              if (event.epoch() == null) {
                statement.setNull(3, Types.BIGINT);
              } else {
                statement.setLong(3, event.epoch());
              }
              statement.setString(
                  4, detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) : detail);
              statement.addBatch();
            }
            return statement.executeBatch().length;
          }
        });
  }

  @Override
  public List<ClusterEvent> recent(int limit) {
    EventStore.checkRecentLimit(limit);
    String sql =
        "SELECT id, at, kind, node_id, epoch, detail FROM "
            + events
            + " ORDER BY id DESC LIMIT "
            + limit;
    return jdbc.read(
        "read events",
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql);
              ResultSet rows = statement.executeQuery()) {
            List<ClusterEvent> found = new ArrayList<>();
            while (rows.next()) {
              long epochValue = rows.getLong("epoch");
              Long epoch = rows.wasNull() ? null : epochValue;
              found.add(
                  new ClusterEvent(
                      rows.getLong("id"),
                      dialect.getInstant(rows, "at"),
                      ClusterEvent.Kind.valueOf(rows.getString("kind")),
                      rows.getString("node_id"),
                      epoch,
                      rows.getString("detail")));
            }
            return List.copyOf(found);
          }
        });
  }

  @Override
  public int trim(int keep, Duration maxAge) {
    EventStore.checkTrim(keep, maxAge);
    String boundary = "SELECT id FROM " + events + " ORDER BY id DESC LIMIT 1 OFFSET " + keep;
    String byCount = "DELETE FROM " + events + " WHERE id <= ?";
    String byAge = "DELETE FROM " + events + " WHERE at < " + dialect.nowMinusMicros();
    return jdbc.write(
        "trim events",
        connection -> {
          int deleted = 0;
          try (PreparedStatement statement = connection.prepareStatement(boundary);
              ResultSet rows = statement.executeQuery()) {
            if (rows.next()) {
              try (PreparedStatement delete = connection.prepareStatement(byCount)) {
                delete.setLong(1, rows.getLong(1));
                deleted += delete.executeUpdate();
              }
            }
          }
          try (PreparedStatement delete = connection.prepareStatement(byAge)) {
            delete.setLong(1, Rows.micros(maxAge));
            deleted += delete.executeUpdate();
          }
          return deleted;
        });
  }
}
