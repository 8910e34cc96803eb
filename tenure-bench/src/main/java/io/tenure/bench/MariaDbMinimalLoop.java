package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.QUEUE;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * {@link RawQueueRuns.Statements#MINIMAL} on MariaDB, which has no {@code UPDATE ... RETURNING}:
 * the claim is a locking read skipping peers' rows and an update of those ids, committed; then the
 * delete by id alone, auto-committed. InnoDB picks a deadlock victim among such loops now and then
 * (its next-key locks); the victim's claim rolled back, so it claims again, as any loop would.
 */
final class MariaDbMinimalLoop extends RawQueueRuns.Worker {
  private final String messages;
  private final PreparedStatement choosing;

  MariaDbMinimalLoop(Connection connection, int batch, CountDownLatch go, String messages)
      throws SQLException {
    super(connection, batch, go);
    this.messages = messages;
    choosing =
        connection.prepareStatement(
            "SELECT id FROM "
                + messages
                + " WHERE queue = ? AND status = 'PENDING' AND available_at <= UTC_TIMESTAMP(6)"
                + " ORDER BY priority DESC, id LIMIT ? FOR UPDATE SKIP LOCKED");
  }

  @Override
  boolean claimAndDelete() throws SQLException {
    try {
      return claimAndDeleteOnce();
    } catch (SQLTransactionRollbackException deadlock) {
      if (!connection.getAutoCommit()) {
        connection.rollback();
        connection.setAutoCommit(true);
      }
      return true;
    }
  }

  private boolean claimAndDeleteOnce() throws SQLException {
    connection.setAutoCommit(false);
    choosing.setString(1, QUEUE);
    choosing.setInt(2, batch);
    List<Long> ids = readIds(choosing);
    if (ids.isEmpty()) {
      connection.commit();
      return false;
    }
    String in = String.join(",", Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement claiming =
        connection.prepareStatement(
            "UPDATE "
                + messages
                + " SET status = 'INFLIGHT', owner_node = ?, claim_token = ?,"
                + " lease_until = UTC_TIMESTAMP(6) + INTERVAL 30 SECOND,"
                + " attempts = attempts + 1 WHERE id IN ("
                + in
                + ")")) {
      claiming.setString(1, node);
      claiming.setString(2, UUID.randomUUID().toString());
      for (int i = 0; i < ids.size(); i++) {
        claiming.setLong(i + 3, ids.get(i));
      }
      claiming.executeUpdate();
    }
    connection.commit();
    connection.setAutoCommit(true);
    try (PreparedStatement deleting =
        connection.prepareStatement("DELETE FROM " + messages + " WHERE id IN (" + in + ")")) {
      for (int i = 0; i < ids.size(); i++) {
        deleting.setLong(i + 1, ids.get(i));
      }
      while (true) {
        try {
          deleting.executeUpdate();
          break;
        } catch (SQLTransactionRollbackException deadlock) {
          // the delete alone rolled back (auto-commit): the rows are still ours, delete again
        }
      }
    }
    return true;
  }
}
