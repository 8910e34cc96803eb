package io.tenure.jdbc.internal;

import io.tenure.QueueMessage;
import io.tenure.RetryOutcome;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.MessageQuery;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Reading messages, replaying and purging dead letters (SPEC §6.7), and retrying one dead or
 * cancelled message (§12.7). A replay locks its dead rows, then their keys' ({@link #lockKeys}),
 * then re-pends them; every replay locks in that order, so two never wait on each other in a cycle.
 */
final class DeadLetters {
  private final QueueContext context;
  private final NamedStatement find;
  private final NamedStatement list;
  private final NamedStatement lockDeadMatching;
  private final NamedStatement lockDead;
  private final Optional<NamedStatement> lockKeyRows;
  private final NamedStatement replayMatching;
  private final NamedStatement replayOne;
  private final NamedStatement deadMatching;
  private final NamedStatement purge;
  private final NamedStatement lockRetryable;
  private final NamedStatement retryOne;
  private final NamedStatement lockStatus;

  DeadLetters(QueueContext context) {
    this.context = context;
    QueueSql sql = context.sql();
    this.find = context.statement(sql.find());
    this.list = context.statement(sql.list());
    this.lockDeadMatching = context.statement(sql.lockDeadMatching());
    this.lockDead = context.statement(sql.lockDead());
    this.lockKeyRows = sql.lockKeyRows().map(context::statement);
    this.replayMatching = context.statement(sql.replayMatching());
    this.replayOne = context.statement(sql.replayOne());
    this.deadMatching = context.statement(sql.deadMatching());
    this.purge = context.statement(sql.purge());
    this.lockRetryable = context.statement(sql.lockRetryable());
    this.retryOne = context.statement(sql.retryOne());
    this.lockStatus = context.statement(sql.lockStatus());
  }

  Optional<QueueMessage> find(long id) {
    return context
        .jdbc()
        .read(
            "read message " + id,
            connection ->
                find.query(connection, Params.of("id", id), context.rows()::message).stream()
                    .findFirst());
  }

  List<QueueMessage> list(MessageQuery query) {
    return context
        .jdbc()
        .read(
            "list messages of queue " + query.queue(),
            connection ->
                list.query(
                    connection,
                    filter(query).and("status", query.status()).and("after_id", query.afterId()),
                    context.rows()::message));
  }

  int replay(MessageQuery deadLetters) {
    return context
        .jdbc()
        .write(
            "replay dead letters of queue " + deadLetters.queue(),
            connection -> {
              List<Dead> dead = lockDeadMatching.query(connection, filter(deadLetters), Dead::of);
              lockKeys(connection, deadLetters.queue(), dead.stream().map(Dead::key).toList());
              return replayMatching.updateInChunks(
                  connection, Params.of(), dead.stream().map(Dead::id).toList());
            });
  }

  boolean replay(long id) {
    return context
        .jdbc()
        .write(
            "replay message " + id,
            connection -> {
              List<Dead> dead = lockDead.query(connection, Params.of("id", id), Dead::of);
              if (dead.isEmpty()) {
                return false;
              }
              lockKeys(connection, dead.get(0).queue(), dead.stream().map(Dead::key).toList());
              return replayOne.update(connection, Params.of("id", id)) == 1;
            });
  }

  /**
   * Retries one dead or cancelled message (SPEC §12.7) as {@link #replay(long)} replays a dead
   * letter: the row locked, then its key's rows, then re-pended, so a claim of its key that holds
   * the key's next row commits first.
   */
  RetryOutcome retry(long id) {
    return context
        .jdbc()
        .write(
            "retry message " + id,
            connection -> {
              List<Dead> found = lockRetryable.query(connection, Params.of("id", id), Dead::of);
              if (found.isEmpty()) {
                return lockStatus.query(connection, Params.of("id", id), rows -> 1).isEmpty()
                    ? RetryOutcome.NOT_FOUND
                    : RetryOutcome.NOT_DEAD_OR_CANCELLED;
              }
              lockKeys(connection, found.get(0).queue(), found.stream().map(Dead::key).toList());
              int retried = retryOne.update(connection, Params.of("id", id));
              if (retried > 1) {
                throw new IllegalStateException(
                    "retrying message "
                        + id
                        + " changed "
                        + retried
                        + " rows, which indicates a bug");
              }
              return retried == 1 ? RetryOutcome.RETRIED : RetryOutcome.NOT_DEAD_OR_CANCELLED;
            });
  }

  /**
   * Deletes the oldest matching dead letters, chosen (and locked) first: MariaDB cannot limit a
   * subquery of the table it changes.
   */
  int purge(MessageQuery deadLetters) {
    return context
        .jdbc()
        .write(
            "purge dead letters of queue " + deadLetters.queue(),
            connection ->
                purge.updateInChunks(
                    connection, Params.of(), deadMatching.ids(connection, filter(deadLetters))));
  }

  /** A query's filter; a condition whose value is null is left out of the statement. */
  private static Params filter(MessageQuery query) {
    return Params.of("queue", query.queue())
        .and("key", query.key())
        .and("group", query.group())
        .and("error_contains", query.errorContains())
        .and("older_than", query.olderThan())
        .and("limit", query.limit());
  }

  /** A dead letter to replay: its id, queue and key (a row's key never changes). */
  private record Dead(long id, String queue, @Nullable String key) {
    static Dead of(java.sql.ResultSet rows) throws SQLException {
      return new Dead(rows.getLong("id"), rows.getString("queue"), rows.getString("msg_key"));
    }
  }

  /**
   * Before a replay re-pends keyed dead letters, locks every pending and in-flight row of their
   * keys, waiting for the holders. A claim holds the key's next row, locked, from choosing it until
   * it commits; a replay that committed in between let a peer's claim read the replayed (older)
   * message as the key's head while that row still read as pending, and take it: two of the key in
   * flight (SPEC §6.2). Waiting here, the replay commits after the claim, so whoever reads the
   * replayed message as pending also reads the key's row in flight. A claim whose snapshot predates
   * a replay that committed before it locked the row is {@link OvertakenClaims}'. Keys in sorted
   * order, each key's rows in id order, so two replays never wait on each other in a cycle. (A
   * resolve, or an exclusive queue's claim, that holds rows of two keys locks them in id order, so
   * with a replay of both keys it can deadlock; the database detects that and the loser is retried
   * as contention.) Unkeyed rows have nothing to lock; where writers take turns no peer runs
   * meanwhile.
   */
  private void lockKeys(Connection connection, String queue, List<@Nullable String> keys)
      throws SQLException {
    TreeSet<String> sorted = new TreeSet<>();
    keys.stream().filter(Objects::nonNull).forEach(sorted::add);
    if (sorted.isEmpty() || lockKeyRows.isEmpty()) {
      return;
    }
    NamedStatement lock = lockKeyRows.get();
    Params first = Params.of("queue", queue).and("key", sorted.first());
    try (PreparedStatement statement = connection.prepareStatement(lock.jdbcText(first))) {
      for (String key : sorted) {
        lock.bind(statement, Params.of("queue", queue).and("key", key));
        try (java.sql.ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            // the rows are locked as they are read
          }
        }
      }
    }
  }
}
