package io.tenure.jdbc.internal;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * Where writers take turns (SQLite), the reads that let an idle poll skip its write transaction. A
 * claim or a reclaim sweep is a write transaction, and on SQLite that is the database's one write
 * lock, held from {@code BEGIN IMMEDIATE} to {@code COMMIT}. A consumer polls an idle queue many
 * times a second: were each poll a write transaction, a process frozen ({@code SIGSTOP}, a long GC)
 * during one would hold the lock, and stop every other node's heartbeats and claims, for as long as
 * it stays frozen. A read takes no write lock (WAL readers never block the writer), so a poll that
 * finds nothing to do writes nothing. What the read misses the next poll finds, as it would find a
 * message committed just after the claim.
 */
final class IdleReads {
  private final Jdbc jdbc;
  private final String anyPending;
  private final String anyExpired;

  IdleReads(Jdbc jdbc, String messages) {
    this.jdbc = jdbc;
    Dialect dialect = jdbc.dialect();
    // One probe of the pending index; a queue whose pending rows are all delayed or blocked still
    // claims (and finds nothing) under the lock: rare, and bounded by the poll's back-off.
    this.anyPending =
        "SELECT 1 FROM " + messages + " WHERE queue = ? AND status = 'PENDING' LIMIT 1";
    // The in-flight index holds only in-flight rows.
    this.anyExpired =
        "SELECT 1 FROM "
            + messages
            + " WHERE status = 'INFLIGHT' AND lease_until < "
            + dialect.now()
            + " LIMIT 1";
  }

  /**
   * @return true if {@code queue} has a pending message, available or not
   */
  boolean anyPending(String queue) {
    return jdbc.read(
        "look for pending messages in queue " + queue,
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, anyPending)) {
            statement.setString(1, queue);
            try (ResultSet rows = statement.executeQuery()) {
              return rows.next();
            }
          }
        });
  }

  /**
   * @return true if a message's lease has expired
   */
  boolean anyExpired() {
    return jdbc.read(
        "look for expired leases",
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, anyExpired);
              ResultSet rows = statement.executeQuery()) {
            return rows.next();
          }
        });
  }
}
