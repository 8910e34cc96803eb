package io.tenure.jdbc.internal;

import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.NewMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Inserts messages in list order (SPEC §6.1). Where inserts return ids, runs of messages without a
 * dedupe key go in multi-row inserts (ids are drawn in VALUES order) and a deduplicated message is
 * inserted alone, if absent; elsewhere each message is inserted alone and a duplicate dedupe key is
 * a unique violation. Either way a duplicate's result is the existing message's id.
 */
final class Enqueues {
  private static final int ROWS_PER_INSERT = 200;

  private final QueueContext context;
  private final QueueSql.Inserting inserting;
  private final @Nullable NamedStatement rows;
  private final @Nullable NamedStatement ifAbsent;
  private final @Nullable NamedStatement one;
  private final NamedStatement deduplicated;
  private final NamedStatement releaseDedupeKey;
  private final Optional<NamedStatement> notifyEnqueued;
  private final String channel;

  /**
   * @param channel the channel PostgreSQL notifies of enqueues
   */
  Enqueues(QueueContext context, String channel) {
    this.context = context;
    this.inserting = context.sql().inserting();
    this.rows = inserting instanceof QueueSql.Returning r ? context.statement(r.rows()) : null;
    this.ifAbsent =
        inserting instanceof QueueSql.Returning r ? context.statement(r.ifAbsent()) : null;
    this.one = inserting instanceof QueueSql.GeneratedKey g ? context.statement(g.one()) : null;
    this.deduplicated = context.statement(context.sql().deduplicated());
    this.releaseDedupeKey = context.statement(context.sql().releaseDedupeKey());
    this.notifyEnqueued = context.sql().notifyEnqueued().map(context::statement);
    this.channel = channel;
  }

  List<EnqueueResult> insertAll(Connection connection, List<NewMessage> batch) throws SQLException {
    notifyEnqueued(connection, batch);
    return switch (inserting) {
      case QueueSql.Returning r -> insertReturning(connection, batch);
      case QueueSql.GeneratedKey g -> {
        List<EnqueueResult> results = new ArrayList<>(batch.size());
        for (NewMessage message : batch) {
          results.add(insertOne(connection, message));
        }
        yield results;
      }
    };
  }

  /** PostgreSQL: one notification per queue, delivered when the enqueuing transaction commits. */
  private void notifyEnqueued(Connection connection, List<NewMessage> batch) throws SQLException {
    if (notifyEnqueued.isEmpty()) {
      return;
    }
    for (String queue : batch.stream().map(NewMessage::queue).distinct().toList()) {
      try (PreparedStatement statement =
          notifyEnqueued
              .get()
              .prepare(connection, Params.of("channel", channel).and("queue", queue))) {
        statement.execute();
      }
    }
  }

  private List<EnqueueResult> insertReturning(Connection connection, List<NewMessage> batch)
      throws SQLException {
    List<EnqueueResult> results = new ArrayList<>(batch.size());
    List<NewMessage> run = new ArrayList<>();
    for (NewMessage message : batch) {
      if (message.dedupeKey() == null) {
        run.add(message);
        if (run.size() == ROWS_PER_INSERT) {
          results.addAll(insertRun(connection, run));
          run.clear();
        }
      } else {
        results.addAll(insertRun(connection, run));
        run.clear();
        List<Long> id = ifAbsent.ids(connection, row(message));
        if (id.isEmpty() && releasedKey(connection, message)) {
          id = ifAbsent.ids(connection, row(message));
        }
        results.add(
            id.isEmpty()
                ? new EnqueueResult(existing(connection, message), false)
                : new EnqueueResult(id.get(0), true));
      }
    }
    results.addAll(insertRun(connection, run));
    return results;
  }

  private List<EnqueueResult> insertRun(Connection connection, List<NewMessage> run)
      throws SQLException {
    if (run.isEmpty()) {
      return List.of();
    }
    List<Long> ids =
        rows.ids(connection, Params.of().rows(run.stream().map(Enqueues::row).toList()));
    if (ids.size() != run.size()) {
      throw new IllegalStateException(
          "inserting "
              + run.size()
              + " messages returned "
              + ids.size()
              + " ids, which indicates a bug");
    }
    return ids.stream().sorted().map(id -> new EnqueueResult(id, true)).toList();
  }

  /**
   * MariaDB: the generated id cannot collide, so a duplicate can only be the dedupe key. A key
   * whose holder's window has passed is taken before the insert, not after a duplicate: InnoDB
   * leaves a shared lock on the duplicate's index record, and two enqueues that both met it and
   * then both wanted to take the key deadlocked (eight racing enqueuers, under load). Taking it
   * first, the second waits on the first's update and then finds the key gone.
   */
  private EnqueueResult insertOne(Connection connection, NewMessage message) throws SQLException {
    if (message.dedupeKey() != null) {
      releasedKey(connection, message);
    }
    try (PreparedStatement statement = one.prepare(connection, row(message), true)) {
      statement.executeUpdate();
      try (ResultSet keys = statement.getGeneratedKeys()) {
        keys.next();
        return new EnqueueResult(keys.getLong(1), true);
      }
    } catch (SQLException e) {
      // MariaDB rolls back just this statement.
      if (message.dedupeKey() == null || !context.dialect().isUniqueViolation(e)) {
        throw e;
      }
      return new EnqueueResult(existing(connection, message), false);
    }
  }

  /**
   * Takes the dedupe key from the message holding it if that message's window has passed (SPEC
   * §12.6), in the enqueue's transaction: a rolled-back enqueue gives it back. The statement is
   * conditional on the holder's status and window, so of two enqueues racing for a key one takes it
   * and the other, waiting on the holder's row, then finds the key gone and meets the first's new
   * message.
   *
   * @return true if the key was taken, so the message can be inserted
   */
  private boolean releasedKey(Connection connection, NewMessage message) throws SQLException {
    return releaseDedupeKey.update(
            connection, Params.of("queue", message.queue()).and("dedupe_key", message.dedupeKey()))
        > 0;
  }

  private static Params row(NewMessage message) {
    return Params.of("queue", message.queue())
        .and("key", message.key())
        .and("payload", message.payload())
        .and("content_type", message.contentType())
        .and("headers", MessageRows.encode(message.headers()))
        .and("priority", message.priority())
        .and("max_attempts", message.maxAttempts())
        .and("delay", message.delay())
        .and("dedupe_key", message.dedupeKey())
        .and("group", message.group())
        .and("timeout", micros(message.timeout()))
        .and("unique_for", micros(message.dedupeWindow().afterFinish()));
  }

  /** A duration column's value: microseconds, or a typed null. */
  private static Object micros(@Nullable Duration value) {
    return value == null ? NamedStatement.NULL_BIGINT : NamedStatement.micros(value);
  }

  private long existing(Connection connection, NewMessage message) throws SQLException {
    List<Long> found =
        deduplicated.ids(
            connection, Params.of("queue", message.queue()).and("dedupe_key", message.dedupeKey()));
    if (found.isEmpty()) {
      throw new IllegalStateException(
          "message with dedupe key "
              + message.dedupeKey()
              + " was neither inserted nor found, which indicates a bug");
    }
    return found.get(0);
  }
}
