package io.tenure.jdbc.internal;

import io.tenure.jdbc.JdbcFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * MariaDB: the named lock's session found by {@code IS_USED_LOCK}, ended by {@code KILL}, which the
 * client sees as a closed connection, as it would a crashed node's.
 */
class MariaDbSessionLockTakeOverTest extends SessionLockTakeOverContract {
  @Override
  JdbcFixture fixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }

  @Override
  OptionalLong lockHolder(Connection connection, JdbcLeaseStore store) throws SQLException {
    String name = ((MariaDbSessionLock) store.sessionLock().orElseThrow()).name();
    try (PreparedStatement query = connection.prepareStatement("SELECT IS_USED_LOCK(?)")) {
      query.setString(1, name);
      try (ResultSet rows = query.executeQuery()) {
        rows.next();
        long id = rows.getLong(1);
        return rows.wasNull() ? OptionalLong.empty() : OptionalLong.of(id);
      }
    }
  }

  @Override
  void kill(Connection connection, long id) throws SQLException {
    try (PreparedStatement kill = connection.prepareStatement("KILL ?")) {
      kill.setLong(1, id);
      kill.execute();
    }
  }
}
