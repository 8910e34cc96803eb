package io.tenure.jdbc.internal;

import io.tenure.spi.LeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A session advisory lock on a dedicated connection. PostgreSQL releases it when the session ends,
 * so a candidate that can take it knows the previous holder's process or connection is gone. Every
 * error ends the session ({@link LockSession#end}): a lock whose state is unknown is ended with it.
 */
final class PostgresSessionLock implements LeaseStore.SessionLock {
  private final LockSession session;
  private final long key;
  private boolean held;

  PostgresSessionLock(Dialect.ConnectionSource connections, long key) {
    this.session = new LockSession(connections);
    this.key = key;
  }

  @Override
  public Hold hold() {
    if (held) {
      if (session.isValid()) {
        // Only this session unlocks it, and a session that is alive now was alive all along.
        return Hold.KEPT;
      }
      // A lost session took the lock with it: start over on a new one.
      closeConnection();
    }
    try {
      Connection connection = session.open();
      try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
        lock.setLong(1, key);
        try (ResultSet rows = lock.executeQuery()) {
          rows.next();
          held = rows.getBoolean(1);
        }
      }
      return held ? Hold.TAKEN : Hold.REFUSED;
    } catch (SQLException e) {
      closeConnection();
      return Hold.UNAVAILABLE;
    }
  }

  @Override
  public void release() {
    Connection connection = session.current();
    if (held && connection != null) {
      try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        unlock.setLong(1, key);
        unlock.execute();
      } catch (SQLException e) {
        closeConnection(); // ending the session releases it
      }
    }
    held = false;
  }

  @Override
  public void close() {
    release();
    closeConnection();
  }

  private void closeConnection() {
    held = false;
    session.end();
  }
}
