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
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The cluster history in {@code <prefix>events}; ids grow with time of writing. */
public final class JdbcEventStore implements EventStore {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcEventStore.class);
  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String events;

  /** Reads that skipped a row of a kind this version does not know, and those kinds. */
  private final AtomicLong skips = new AtomicLong();

  private final ConcurrentSkipListMap<String, String> skipped = new ConcurrentSkipListMap<>();

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
              ClusterEvent.@Nullable Kind kind = kindOf(rows.getString("kind"));
              if (kind == null) {
                continue;
              }
              long epochValue = rows.getLong("epoch");
              Long epoch = rows.wasNull() ? null : epochValue;
              found.add(
                  new ClusterEvent(
                      rows.getLong("id"),
                      dialect.getInstant(rows, "at"),
                      kind,
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

  @Override
  public io.tenure.spi.SkippedRows skippedRows() {
    return new io.tenure.spi.SkippedRows(skips.get(), skipped);
  }

  /**
   * The kind of a stored event, or null (counted and warned once per kind) for a kind this version
   * does not know: a newer node in a rolling upgrade records kinds an older one has never heard of,
   * and one such row must not fail every read of the history.
   */
  private ClusterEvent.@Nullable Kind kindOf(String stored) {
    try {
      return ClusterEvent.Kind.valueOf(stored);
    } catch (IllegalArgumentException e) {
      skips.incrementAndGet();
      String shown = stored.replaceAll("\\p{Cntrl}", "?");
      String reason =
          "event kind '" + shown + "' is not known to this version of Tenure (a newer node's?)";
      if (skipped.size() < io.tenure.spi.SkippedRows.MAX_ROWS
          && skipped.putIfAbsent(stored, reason) == null) {
        LOG.warn("events in {} of kind '{}' are skipped by every read: {}", events, shown, reason);
      }
      return null;
    }
  }
}
