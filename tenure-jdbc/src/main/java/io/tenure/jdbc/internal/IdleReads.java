package io.tenure.jdbc.internal;

import io.tenure.jdbc.internal.NamedStatement.Params;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

/**
 * Where writers take turns (SQLite), the reads that let an idle poll skip its write transaction. A
 * claim or a reclaim sweep is a write transaction, and on SQLite that is the database's one write
 * lock, held from {@code BEGIN IMMEDIATE} to {@code COMMIT}. A consumer polls an idle queue many
 * times a second: were each poll a write transaction, a process frozen ({@code SIGSTOP}, a long GC)
 * during one would hold the lock, and stop every other node's heartbeats and claims, for as long as
 * it stays frozen. A read takes no write lock (WAL readers never block the writer), so a poll that
 * finds nothing to do writes nothing. What the read misses the next poll finds, as it would find a
 * message committed just after the claim. Elsewhere there is no probe, and every poll may find
 * work.
 */
final class IdleReads {
  private final Jdbc jdbc;
  private final Optional<NamedStatement> anyPending;
  private final Optional<NamedStatement> anyExpired;

  IdleReads(QueueContext context) {
    this.jdbc = context.jdbc();
    Optional<QueueSql.IdleProbes> probes = context.sql().idleProbes();
    this.anyPending = probes.map(p -> context.statement(p.anyPending()));
    this.anyExpired = probes.map(p -> context.statement(p.anyExpired()));
  }

  /**
   * @return false only if {@code queue} has no pending message, available or not
   */
  boolean mayHavePending(String queue) {
    return anyPending.isEmpty()
        || exists(
            "look for pending messages in queue " + queue,
            anyPending.get(),
            Params.of("queue", queue));
  }

  /**
   * @return false only if no message's lease has expired
   */
  boolean mayHaveExpired() {
    return anyExpired.isEmpty() || exists("look for expired leases", anyExpired.get(), Params.of());
  }

  private boolean exists(String what, NamedStatement probe, Params params) {
    return jdbc.read(
        what,
        connection -> {
          // Through Jdbc.prepare: a probe has the statement timeout of Tenure's own reads.
          try (PreparedStatement statement = jdbc.prepare(connection, probe.jdbcText(params))) {
            probe.bind(statement, params);
            try (ResultSet rows = statement.executeQuery()) {
              return rows.next();
            }
          }
        });
  }
}
