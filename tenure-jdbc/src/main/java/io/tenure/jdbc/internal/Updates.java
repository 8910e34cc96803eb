package io.tenure.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** One conditional write and its row count, for the agent stores' writes. */
final class Updates {
  private Updates() {}

  /** Sets a statement's parameters. */
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /**
   * @return the rows {@code sql} changed: 0 or 1
   * @throws IllegalStateException if it changed more, which indicates a bug
   */
  static int count(Connection connection, String sql, Binder binder) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      return JdbcMembershipStore.checkedCount(statement.executeUpdate(), sql);
    }
  }

  /** Whether an insert-if-absent inserted its row; a concurrent insert of the key is false. */
  static boolean insertIfAbsent(Dialect dialect, Connection connection, String sql, Binder binder)
      throws SQLException {
    try {
      return count(connection, sql, binder) == 1;
    } catch (SQLException e) {
      if (dialect.insertIfAbsentReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }
}
