package io.tenure.jdbc.internal;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A connection borrowed for one unit of Tenure's work. A caller's data source may hand out
 * connections with auto-commit off or with its own isolation level: Tenure switches to auto-commit
 * (its transactions are explicit) and, before the connection goes back, restores what it changed,
 * so the caller's pool gets its connections back as it configured them.
 */
final class BorrowedConnection implements AutoCloseable {
  private static final int NOT_READ = -1;

  private final DataSource source;
  private final Connection connection;
  private final boolean autoCommit;
  private final Dialect.SqlWork undoSession;
  private int isolation = NOT_READ;
  private boolean discarded;

  private BorrowedConnection(DataSource source, Connection connection, Dialect dialect)
      throws SQLException {
    this.source = source;
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
      return new BorrowedConnection(source, connection, dialect);
    } catch (SQLException | RuntimeException e) {
      closeAfter(connection, e);
      throw e;
    }
  }

  Connection connection() {
    return connection;
  }

  /**
   * Remembers the isolation level before a transaction may change it. Read only then: on PostgreSQL
   * reading it is a round trip, and reads in auto-commit never change it.
   */
  void rememberIsolation() throws SQLException {
    if (isolation == NOT_READ) {
      isolation = connection.getTransactionIsolation();
    }
  }

  /**
   * Closes the physical connection now and keeps it out of its pool. After a failed rollback it may
   * still be inside a transaction that nobody would end: SQLite's {@code BEGIN IMMEDIATE} is
   * invisible to JDBC (auto-commit stays on), so an idle pooled connection would hold the
   * database's write lock and block every writer. Failures while discarding are attached to {@code
   * failure}.
   */
  void discard(Throwable failure) {
    discarded = true;
    try {
      // Closed here rather than by the pool: Hikari closes evicted connections asynchronously.
      connection.unwrap(Connection.class).close();
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
    try {
      if (source.isWrapperFor(HikariDataSource.class)) {
        source.unwrap(HikariDataSource.class).evictConnection(connection);
      }
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  /** Restores what Tenure changed, then returns the connection to its pool. */
  @Override
  public void close() throws SQLException {
    if (discarded) {
      connection.close();
      return;
    }
    try {
      restore();
    } catch (SQLException | RuntimeException e) {
      // Its settings are unknown now: it must not serve the caller's next borrower.
      discard(e);
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
