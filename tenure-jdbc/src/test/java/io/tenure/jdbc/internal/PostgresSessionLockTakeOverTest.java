package io.tenure.jdbc.internal;

import io.tenure.jdbc.JdbcFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * PostgreSQL: the advisory lock's backend found in {@code pg_locks}, ended by {@code
 * pg_terminate_backend}.
 */
class PostgresSessionLockTakeOverTest extends SessionLockTakeOverContract {
  @Override
  JdbcFixture fixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }

  @Override
  OptionalLong lockHolder(Connection connection, JdbcLeaseStore store) throws SQLException {
    long key = store.sessionLockKey();
    try (PreparedStatement query =
        connection.prepareStatement(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
                + " AND classid::bigint = ? AND objid::bigint = ?")) {
      query.setLong(1, key >>> 32);
      query.setLong(2, key & 0xFFFF_FFFFL);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next() ? OptionalLong.of(rows.getInt(1)) : OptionalLong.empty();
      }
    }
  }

  @Override
  void kill(Connection connection, long id) throws SQLException {
    try (PreparedStatement kill = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
      kill.setInt(1, (int) id);
      kill.execute();
    }
  }
}
