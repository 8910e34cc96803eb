package io.tenure.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A connection borrowed for one unit of Tenure's work. A caller's data source may hand out
 * connections with auto-commit off or with its own isolation level: Tenure switches to auto-commit
 * (its transactions are explicit) and, before the connection goes back, restores what it changed, so
 * the caller's pool gets its connections back as it configured them.
 */
final class BorrowedConnection implements AutoCloseable {
  private static final int NOT_READ = -1;

  private final Connection connection;
  private final boolean autoCommit;
  private final Dialect.SqlWork undoSession;
  private int isolation = NOT_READ;

  private BorrowedConnection(Connection connection, Dialect dialect) throws SQLException {
    this.connection = connection;
    this.autoCommit = connection.getAutoCommit();
    if (!autoCommit) {
      // A pool hands out a connection with no work pending, so this commits nothing of anyone's.
      connection.setAutoCommit(true);
    }
    this.undoSession = dialect.prepareSession(connection);
  }

  /**
   * @return a connection from {@code source} in auto-commit mode, prepared by {@code dialect}
   */
  static BorrowedConnection borrow(DataSource source, Dialect dialect) throws SQLException {
    Connection connection = source.getConnection();
    try {
      return new BorrowedConnection(connection, dialect);
    } catch (SQLException | RuntimeException e) {
      closeAfter(connection, e);
      throw e;
    }
  }

  Connection connection() {
    return connection;
  }

  /**
   * Remembers the isolation level before a transaction may change it. Read only then: on
   * PostgreSQL reading it is a round trip, and reads in auto-commit never change it.
   */
  void rememberIsolation() throws SQLException {
    if (isolation == NOT_READ) {
      isolation = connection.getTransactionIsolation();
    }
  }

  /** Restores what Tenure changed, then returns the connection to its pool. */
  @Override
  public void close() throws SQLException {
    try {
      restore();
    } catch (SQLException | RuntimeException e) {
      closeAfter(connection, e);
      throw e;
    }
    connection.close();
  }

  private void restore() throws SQLException {
    undoSession.run();
    // Isolation first: it cannot change inside a transaction, which auto-commit off would start.
    if (isolation != NOT_READ && connection.getTransactionIsolation() != isolation) {
      connection.setTransactionIsolation(isolation);
    }
    if (connection.getAutoCommit() != autoCommit) {
      connection.setAutoCommit(autoCommit);
    }
  }

  private static void closeAfter(Connection connection, Throwable failure) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
