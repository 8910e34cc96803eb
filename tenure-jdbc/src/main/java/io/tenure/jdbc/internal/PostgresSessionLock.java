package io.tenure.jdbc.internal;

import io.tenure.spi.LeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A session advisory lock on a dedicated connection. PostgreSQL releases it when the session ends,
 * so a candidate that can take it knows the previous holder's process or connection is gone.
 */
final class PostgresSessionLock implements LeaseStore.SessionLock {
  private static final int VALID_CHECK_SECONDS = 1;

  private final Dialect.ConnectionSource connections;
  private final long key;
  private @Nullable Connection connection;
  private boolean held;

  PostgresSessionLock(Dialect.ConnectionSource connections, long key) {
    this.connections = connections;
    this.key = key;
  }

  @Override
  public Hold hold() {
    if (held && connection != null) {
      try {
        if (connection.isValid(VALID_CHECK_SECONDS)) {
          // Only this session unlocks it, and a session that is alive now was alive all along.
          return Hold.KEPT;
        }
      } catch (SQLException e) {
        // treated as a lost session below
      }
      // A lost session took the lock with it: start over on a new one.
      closeConnection();
    }
    try {
      if (connection == null || !connection.isValid(VALID_CHECK_SECONDS)) {
        closeConnection();
        connection = connections.open();
      }
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
    if (held && connection != null) {
      try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        unlock.setLong(1, key);
        unlock.execute();
      } catch (SQLException e) {
        closeConnection();
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
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // The session is gone either way, and with it the lock.
      }
      connection = null;
    }
  }
}
