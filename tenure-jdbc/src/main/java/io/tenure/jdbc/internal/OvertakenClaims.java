package io.tenure.jdbc.internal;

import io.tenure.QueueMessage;
import io.tenure.jdbc.internal.NamedStatement.Params;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Re-checks the keyed rows a claim just took, in a new statement (at READ COMMITTED a new snapshot;
 * every server write transaction runs at it, on a caller's pool too: {@link Jdbc}), and gives back,
 * as a release would, those that now have an older pending row of their key or another row of their
 * key in flight. The claim chose them on its statement's snapshot: a replay that committed after
 * that snapshot but before the claim locked the row never met the claim's lock to wait for ({@link
 * DeadLetters}' key locks), so the key's replayed, older message may be pending now, or already
 * claimed by a peer that read this claim's row as still pending. The re-check is a plain read: it
 * waits for nobody and cannot deadlock. SQLite, where no peer commits in between, skips it, and so
 * does a claim of unkeyed rows only (the drain's hot path pays nothing).
 */
final class OvertakenClaims {
  private final QueueSql.Overtaking overtaking;
  private final @Nullable NamedStatement first;
  private final @Nullable NamedStatement then;

  OvertakenClaims(QueueContext context) {
    this.overtaking = context.sql().overtaking();
    switch (overtaking) {
      case QueueSql.NoPeers none -> {
        first = null;
        then = null;
      }
      case QueueSql.GiveBackReturning returning -> {
        first = context.statement(returning.giveBack());
        then = null;
      }
      case QueueSql.FindThenGiveBack find -> {
        first = context.statement(find.find());
        then = context.statement(find.giveBack());
      }
    }
  }

  /**
   * @return the rows of {@code claimed} still claimed
   */
  List<QueueMessage> giveBack(Connection connection, String token, List<QueueMessage> claimed)
      throws SQLException {
    List<Long> keyed = claimed.stream().filter(m -> m.key() != null).map(QueueMessage::id).toList();
    if (keyed.isEmpty() || overtaking instanceof QueueSql.NoPeers) {
      return claimed;
    }
    List<Long> given = first.ids(connection, Params.of("token", token).and("ids", keyed));
    if (then != null) {
      then.updateInChunks(connection, Params.of(), given);
    }
    if (given.isEmpty()) {
      return claimed;
    }
    return new ArrayList<>(claimed.stream().filter(m -> !given.contains(m.id())).toList());
  }
}
