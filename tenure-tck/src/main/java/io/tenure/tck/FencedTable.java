package io.tenure.tck;

import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's own table, written under a lock's fence in the user's own transaction (SPEC §11): what
 * the kit's fenced-write tests and the fault harness write to. Dropped on close.
 */
final class FencedTable implements AutoCloseable {
  private final Connection connection;
  private final String table;

  private FencedTable(Connection connection, String table) {
    this.connection = connection;
    this.table = table;
  }

  static FencedTable create(Connection connection, TablePrefix prefix) throws SQLException {
    String table = prefix.table("kit_fenced_writes");
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE " + table + " (token BIGINT NOT NULL, what VARCHAR(64) NOT NULL)");
    }
    return new FencedTable(connection, table);
  }

  /**
   * In one transaction: the fence, then the write only if the fence held.
   *
   * @return whether the write was made
   */
  boolean writeIfHeld(LockStore locks, LockGrant grant, String what) throws SQLException {
    connection.setAutoCommit(false);
    try {
      boolean held = locks.holds(connection, grant);
      if (held) {
        insert(grant.token(), what);
      }
      connection.commit();
      return held;
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /** An insert on the connection as it is (in the caller's transaction, if one is open). */
  void insert(long token, String what) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + table + " (token, what) VALUES (?, ?)")) {
      insert.setLong(1, token);
      insert.setString(2, what);
      insert.executeUpdate();
    }
  }

  /**
   * @return every committed write as {@code token:what}, by token then text
   */
  List<String> writes() throws SQLException {
    List<String> writes = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT token, what FROM " + table + " ORDER BY token, what")) {
      while (rows.next()) {
        writes.add(rows.getLong(1) + ":" + rows.getString(2));
      }
    }
    return writes;
  }

  @Override
  public void close() throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.rollback();
      connection.setAutoCommit(true);
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE " + table);
    }
  }
}
