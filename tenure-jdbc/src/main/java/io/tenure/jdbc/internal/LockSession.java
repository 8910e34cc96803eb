package io.tenure.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The dedicated connection a session lock lives on ({@link PostgresSessionLock}, {@link
 * MariaDbSessionLock}): the lock is held exactly as long as this session, so every doubt about the
 * lock's state is settled by ending the session.
 */
final class LockSession {
  private static final int VALID_CHECK_SECONDS = 1;

  private final Dialect.ConnectionSource connections;
  private @Nullable Connection connection;

  LockSession(Dialect.ConnectionSource connections) {
    this.connections = connections;
  }

  /** The current session, or null if there is none. */
  @Nullable Connection current() {
    return connection;
  }

  /** Checks the current session with the driver. */
  boolean isValid() {
    try {
      return connection != null && connection.isValid(VALID_CHECK_SECONDS);
    } catch (SQLException e) {
      return false;
    }
  }

  /** The current session if it is valid, else a new one (ending the old). */
  Connection open() throws SQLException {
    if (!isValid()) {
      end();
      connection = connections.open();
    }
    return connection;
  }

  /**
   * Ends the session, and with it every lock it holds. Aborted, not just closed: a caller's pool
   * would keep a closed connection alive, and with it a lock this session may still hold after a
   * failed statement.
   */
  void end() {
    Connection ending = connection;
    connection = null;
    if (ending == null) {
      return;
    }
    try {
      ending.abort(Runnable::run);
    } catch (SQLException | RuntimeException ignored) {
      // closed below
    }
    try {
      ending.close();
    } catch (SQLException ignored) {
      // The session is gone either way, and with it the lock.
    }
  }
}
