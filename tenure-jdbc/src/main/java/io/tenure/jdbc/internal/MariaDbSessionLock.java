package io.tenure.jdbc.internal;

import io.tenure.spi.LeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A named lock ({@code GET_LOCK}) on a dedicated connection. MariaDB and MySQL release it when the
 * session ends, including when the client's process dies and its socket closes, so a candidate that
 * can take it knows the previous holder's session is gone.
 *
 * <p>Named locks are server-wide, not per database: the name carries a key of the database and the
 * table prefix ({@link Dialect.LockSite#key()}), 34 characters at most of MySQL's 64. They are
 * re-entrant in one session (MariaDB 10.0.2+, MySQL 5.7+), so {@code GET_LOCK} is sent only when
 * this session does not hold the lock, and every error closes the connection: a lock whose state is
 * unknown is ended with its session.
 */
final class MariaDbSessionLock implements LeaseStore.SessionLock {
  /** 1 taken, 0 held by another session; NULL is an error (the session was killed, say). */
  private static final String TAKE = "SELECT GET_LOCK(?, 0)";

  /**
   * The holder's connection id, compared in the server: a driver that reconnected behind our back
   * would pass a ping, but not this.
   */
  private static final String OWN = "SELECT IS_USED_LOCK(?) = CONNECTION_ID()";

  private static final String RELEASE = "SELECT RELEASE_LOCK(?)";

  private final LockSession session;
  private final String name;
  private boolean held;

  MariaDbSessionLock(Dialect.ConnectionSource connections, long key) {
    this.session = new LockSession(connections);
    this.name = "tenure:leader:" + key;
  }

  /** The lock's server-wide name, for tests that find its holder with {@code IS_USED_LOCK}. */
  String name() {
    return name;
  }

  @Override
  public Hold hold() {
    Connection current = session.current();
    if (held && current != null) {
      try {
        if (ownedHere(current)) {
          // Only this session releases it, and it is the same session as at the last check.
          return Hold.KEPT;
        }
      } catch (SQLException e) {
        // treated as a lost session below
      }
      // A lost session took the lock with it: start over on a new one.
      closeConnection();
    }
    try {
      Connection connection = session.open();
      Boolean taken = take(connection);
      if (taken == null) {
        closeConnection();
        return Hold.UNAVAILABLE;
      }
      held = taken;
      return held ? Hold.TAKEN : Hold.REFUSED;
    } catch (SQLException e) {
      closeConnection();
      return Hold.UNAVAILABLE;
    }
  }

  private boolean ownedHere(Connection session) throws SQLException {
    try (PreparedStatement own = session.prepareStatement(OWN)) {
      own.setString(1, name);
      try (ResultSet rows = own.executeQuery()) {
        return rows.next() && rows.getInt(1) == 1 && !rows.wasNull();
      }
    }
  }

  /**
   * @return true if taken, false if another session holds it, null if the server answered NULL
   */
  private @Nullable Boolean take(Connection session) throws SQLException {
    try (PreparedStatement take = session.prepareStatement(TAKE)) {
      take.setString(1, name);
      try (ResultSet rows = take.executeQuery()) {
        if (!rows.next()) {
          return null;
        }
        int answer = rows.getInt(1);
        return rows.wasNull() ? null : answer == 1;
      }
    }
  }

  @Override
  public void release() {
    Connection connection = session.current();
    if (held && connection != null) {
      try (PreparedStatement unlock = connection.prepareStatement(RELEASE)) {
        unlock.setString(1, name);
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
