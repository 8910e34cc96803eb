package io.tenure.jdbc.internal;

import io.tenure.OutgoingMessage;
import io.tenure.PausedSlots;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Schedules in {@code <prefix>schedules} (SPEC §10). A fire checks the leader fence, moves the row
 * on its version and enqueues each slot's message through the queue store, all in one transaction,
 * so a slot's message exists exactly when its schedule moved past it.
 */
public final class JdbcScheduleStore implements ScheduleStore {
  private static final int MAX_LIST = 10_000;

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final ScheduleSql sql;
  private final JdbcQueueStore queues;
  private final Map<String, String> constants;

  /**
   * @param queues the store's queue store: a fire and a trigger enqueue through it, in their own
   *     transaction
   */
  public JdbcScheduleStore(Jdbc jdbc, TablePrefix prefix, JdbcQueueStore queues) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.sql = dialect.scheduleSql();
    this.queues = queues;
    this.constants = ScheduleSql.constants(dialect, prefix);
  }

  private NamedStatement statement(String template) {
    return NamedStatement.of(template, constants);
  }

  @Override
  public Schedules.Declared declare(ScheduleDefinition definition) {
    Params params = definition(definition);
    String name = definition.schedule().name();
    return jdbc.write(
        "declare schedule " + name,
        connection -> {
          if (inserted(connection, params.and("paused", false))) {
            return Schedules.Declared.CREATED;
          }
          List<String> stored =
              statement(sql.fingerprint())
                  .query(connection, Params.of("name", name), rows -> rows.getString(1));
          if (stored.isEmpty()) {
            // Deleted between the insert and the read: declared again on the next try.
            throw new io.tenure.ContentionException(
                "schedule " + name + " was deleted while it was declared", null);
          }
          if (stored.get(0).equals(params.values().get("fingerprint"))) {
            return Schedules.Declared.UNCHANGED;
          }
          JdbcMembershipStore.checkedCount(
              statement(sql.redefine()).update(connection, params), "redefine");
          return Schedules.Declared.UPDATED;
        });
  }

  private boolean inserted(Connection connection, Params params) throws SQLException {
    try {
      return JdbcMembershipStore.checkedCount(
              statement(sql.insert()).update(connection, params), "insert")
          == 1;
    } catch (SQLException e) {
      if (sql.insertReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  /** The definition's columns as parameters, with {@code :name} and {@code :next}. */
  private Params definition(ScheduleDefinition definition) {
    Schedule s = definition.schedule();
    OutgoingMessage m = s.message();
    return Params.of("name", s.name())
        .and("kind", s.kind().name())
        .and("expression", s.expression())
        .and(
            "interval_us",
            s.interval() == null
                ? NamedStatement.NULL_BIGINT
                : (Object) NamedStatement.micros(s.interval()))
        .and("anchor_at", NamedStatement.instant(dialect, s.anchor()))
        .and("zone", s.zone())
        .and("queue", s.queue())
        .and("msg_key", m.key())
        .and("payload", m.payload())
        .and("content_type", m.contentType())
        .and("headers", MessageRows.encode(m.headers()))
        .and("priority", m.priority())
        .and("max_attempts", definition.maxAttempts())
        .and("missed", ScheduleDefinition.missed(s.missedSlots()))
        .and("missed_after_us", s.missedAfter())
        .and("while_paused", s.whilePaused().name())
        .and("jitter_us", s.jitter())
        .and("fingerprint", definition.fingerprint())
        .and("next", NamedStatement.instant(dialect, definition.nextFireAt()));
  }

  @Override
  public Optional<ScheduleInfo> read(String name) {
    Schedule.checkName(name);
    return jdbc.read(
        "read schedule " + name,
        connection ->
            statement(sql.read()).query(connection, Params.of("name", name), this::row).stream()
                .findFirst());
  }

  @Override
  public List<ScheduleInfo> list(int limit) {
    checkLimit(limit);
    return jdbc.read(
        "list schedules",
        connection ->
            statement(sql.list()).query(connection, Params.of("limit", limit), this::row));
  }

  @Override
  public List<ScheduleInfo> due(int limit) {
    checkLimit(limit);
    return jdbc.read(
        "read due schedules",
        connection ->
            statement(sql.due())
                .query(connection, Params.of("limit", limit).and("running", false), this::row));
  }

  @Override
  public Optional<Instant> nextDue() {
    return jdbc.read(
        "read the next due schedule",
        connection ->
            statement(sql.nextDue())
                .query(
                    connection,
                    Params.of("running", false),
                    rows -> Optional.ofNullable(dialect.getInstantOrNull(rows, "next_fire_at")))
                .get(0));
  }

  @Override
  public ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing) {
    return jdbc.write(
        "fire schedule " + firing.name(),
        connection -> {
          Params leader = Params.of("leader", fence.nodeId()).and("epoch", fence.epoch());
          Params moved =
              Params.of("name", firing.name())
                  .and("leader", fence.nodeId())
                  .and("epoch", fence.epoch())
                  .and("version", firing.version())
                  .and("next", NamedStatement.instant(dialect, firing.nextFireAt()))
                  .and("fired", firing.slots().size())
                  .and("skipped", firing.skipped());
          if (JdbcMembershipStore.checkedCount(
                  statement(sql.fired()).update(connection, moved), "fire")
              == 0) {
            return statement(sql.fence()).ids(connection, leader).isEmpty()
                ? new ScheduleFiring.Fenced()
                : new ScheduleFiring.Lost();
          }
          if (firing.slots().isEmpty()) {
            return new ScheduleFiring.Fired(List.of());
          }
          List<Long> ids =
              queues
                  .enqueue(
                      connection,
                      firing.slots().stream().map(ScheduleFiring.Slot::message).toList())
                  .stream()
                  .map(EnqueueResult::id)
                  .toList();
          statement(sql.lastMessage())
              .update(
                  connection,
                  Params.of("name", firing.name())
                      .and("id", ids.get(ids.size() - 1))
                      .and(
                          "slot",
                          NamedStatement.instant(
                              dialect, firing.slots().get(firing.slots().size() - 1).at())));
          return new ScheduleFiring.Fired(ids);
        });
  }

  @Override
  public boolean setPaused(String name, boolean paused, @Nullable Instant nextFireAt) {
    Schedule.checkName(name);
    Params params = Params.of("name", name).and("paused", true).and("running", false);
    if (nextFireAt != null) {
      params = params.and("next", NamedStatement.instant(dialect, nextFireAt));
    }
    Params bound = params;
    return jdbc.write(
        (paused ? "pause" : "resume") + " schedule " + name,
        connection ->
            JdbcMembershipStore.checkedCount(
                    statement(paused ? sql.pause() : sql.resume()).update(connection, bound),
                    "pause")
                == 1);
  }

  @Override
  public Optional<Long> trigger(String name, NewMessage message) {
    Schedule.checkName(name);
    return jdbc.write(
        "trigger schedule " + name,
        connection -> {
          if (statement(sql.fingerprint())
              .query(connection, Params.of("name", name), r -> 1)
              .isEmpty()) {
            return Optional.<Long>empty();
          }
          long id = queues.enqueue(connection, List.of(message)).get(0).id();
          statement(sql.triggered()).update(connection, Params.of("name", name).and("id", id));
          return Optional.of(id);
        });
  }

  @Override
  public boolean delete(String name) {
    Schedule.checkName(name);
    return jdbc.write(
        "delete schedule " + name,
        connection ->
            JdbcMembershipStore.checkedCount(
                    statement(sql.delete()).update(connection, Params.of("name", name)), "delete")
                == 1);
  }

  private ScheduleInfo row(ResultSet rows) throws SQLException {
    String name = rows.getString("name");
    Schedule.Kind kind = Schedule.Kind.valueOf(rows.getString("kind"));
    long intervalMicros = rows.getLong("interval_us");
    Schedule schedule =
        switch (kind) {
          case CRON ->
              Schedule.cron(name, rows.getString("expression")).zone(rows.getString("zone"));
          case QUARTZ ->
              Schedule.quartz(name, rows.getString("expression")).zone(rows.getString("zone"));
          case INTERVAL ->
              Schedule.every(name, Duration.ofNanos(intervalMicros * 1000))
                  .startingAt(dialect.getInstant(rows, "anchor_at"));
        };
    OutgoingMessage message =
        new OutgoingMessage(
            rows.getBytes("payload"),
            rows.getString("content_type"),
            MessageRows.decode(rows.getString("headers")),
            rows.getString("msg_key"),
            rows.getInt("priority"),
            Duration.ZERO,
            null);
    schedule =
        schedule
            .enqueue(rows.getString("queue"), message)
            .missedSlots(ScheduleDefinition.missed(rows.getString("missed")))
            .missedAfter(micros(rows.getLong("missed_after_us")))
            .whilePaused(PausedSlots.valueOf(rows.getString("while_paused")))
            .jitter(micros(rows.getLong("jitter_us")));
    long lastMessage = rows.getLong("last_message_id");
    Long lastMessageId = rows.wasNull() ? null : lastMessage;
    return new ScheduleInfo(
        schedule,
        rows.getInt("max_attempts"),
        rows.getBoolean("paused"),
        dialect.getInstantOrNull(rows, "paused_at"),
        dialect.getInstant(rows, "next_fire_at"),
        dialect.getInstantOrNull(rows, "last_fire_at"),
        dialect.getInstantOrNull(rows, "last_slot_at"),
        lastMessageId,
        rows.getLong("fired"),
        rows.getLong("skipped"),
        rows.getLong("version"),
        dialect.getInstant(rows, "read_at"));
  }

  private static Duration micros(long micros) {
    return Duration.ofNanos(micros * 1000);
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIST) {
      throw new IllegalArgumentException("limit must be 1 to 10,000, got " + limit);
    }
  }
}
