package io.tenure.jdbc.internal;

import io.tenure.ConstraintViolationException;
import io.tenure.ContentionException;
import io.tenure.SchemaMissingException;
import io.tenure.StoreException;
import io.tenure.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * Runs JDBC work on a pooled connection, in auto-commit or in one write transaction, and turns
 * every {@link SQLException} into Tenure's typed exceptions through the dialect's classifier.
 */
public final class Jdbc {
  /** How often a write that met contention is tried in all. */
  static final int CONTENTION_ATTEMPTS = 5;

  private final DataSource dataSource;
  private final Dialect dialect;
  private final String location;
  private final BooleanSupplier closed;
  private final int statementTimeoutSeconds;
  private final boolean isolationFixed;

  /**
   * @param location where the data lives, secrets masked, for messages
   * @param closed tells whether the owning store was closed
   */
  public Jdbc(DataSource dataSource, Dialect dialect, String location, BooleanSupplier closed) {
    this(dataSource, dialect, location, closed, 0, false);
  }

  /**
   * @param statementTimeoutSeconds the query timeout of statements made with {@link #prepare}; 0
   *     for none
   * @param isolationFixed true if every connection of {@code dataSource} is at READ COMMITTED
   *     already and nothing hands it back changed (Tenure's own pools); a caller's data source is
   *     false: its isolation is read, set and restored around each write transaction
   */
  public Jdbc(
      DataSource dataSource,
      Dialect dialect,
      String location,
      BooleanSupplier closed,
      int statementTimeoutSeconds,
      boolean isolationFixed) {
    this.dataSource = dataSource;
    this.isolationFixed = isolationFixed;
    this.dialect = dialect;
    this.location = location;
    this.closed = closed;
    this.statementTimeoutSeconds = statementTimeoutSeconds;
  }

  /**
   * @return a statement with this executor's query timeout set
   */
  public PreparedStatement prepare(Connection connection, String sql) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    if (statementTimeoutSeconds > 0) {
      statement.setQueryTimeout(statementTimeoutSeconds);
    }
    return statement;
  }

  /** Work on one connection. */
  @FunctionalInterface
  public interface Work<T> {
    /** Does the work. */
    T run(Connection connection) throws SQLException;
  }

  /**
   * @return the dialect of this store
   */
  public Dialect dialect() {
    return dialect;
  }

  /** Runs {@code work} in auto-commit mode: each statement stands alone. */
  public <T> T read(String what, Work<T> work) {
    checkOpen();
    try (BorrowedConnection borrowed = BorrowedConnection.borrow(dataSource, dialect)) {
      return work.run(borrowed.connection());
    } catch (SQLException e) {
      throw translate(what, e);
    }
  }

  /**
   * Runs {@code work} that begins and ends its own transactions (schema migration) on one
   * connection in auto-commit mode, and restores the connection's settings afterwards. Failures are
   * classified like every other operation's.
   */
  public <T> T withTransactions(String what, Work<T> work) {
    checkOpen();
    try (BorrowedConnection borrowed = BorrowedConnection.borrow(dataSource, dialect)) {
      borrowed.rememberIsolation();
      return work.run(borrowed.connection());
    } catch (SQLException e) {
      throw translate(what, e);
    }
  }

  /**
   * Runs {@code work} in one write transaction, retried from the start when the database reports
   * contention (the failed attempt was rolled back, so the retry is safe).
   */
  public <T> T write(String what, Work<T> work) {
    return write(what, work, result -> true);
  }

  /**
   * Like {@link #write(String, Work)}, but commits only when {@code commit} accepts the result and
   * rolls back otherwise: a compare-and-swap that failed half-way leaves nothing behind.
   */
  public <T> T write(String what, Work<T> work, java.util.function.Predicate<T> commit) {
    ContentionException last = null;
    for (int attempt = 1; attempt <= CONTENTION_ATTEMPTS; attempt++) {
      try {
        return writeOnce(what, work, commit);
      } catch (ContentionException e) {
        if (last != null) {
          e.addSuppressed(last);
        }
        last = e;
        backOff(attempt);
      }
    }
    throw last;
  }

  private <T> T writeOnce(String what, Work<T> work, java.util.function.Predicate<T> commit) {
    checkOpen();
    try (BorrowedConnection borrowed = BorrowedConnection.borrow(dataSource, dialect)) {
      Connection connection = borrowed.connection();
      if (isolationFixed) {
        dialect.beginAtIsolation(connection);
      } else {
        borrowed.rememberIsolation();
        dialect.begin(connection);
      }
      try {
        T result = work.run(connection);
        if (commit.test(result)) {
          dialect.commit(connection);
        } else {
          dialect.rollback(connection);
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        try {
          dialect.rollback(connection);
        } catch (SQLException | RuntimeException rollbackFailure) {
          e.addSuppressed(rollbackFailure);
          borrowed.discard(e);
        }
        throw e;
      }
    } catch (SQLException e) {
      throw translate(what, e);
    }
  }

  /**
   * @return the typed exception for {@code e}, with the operation and location in its message
   */
  public RuntimeException translate(String what, SQLException e) {
    String context = what + " on " + location;
    return switch (dialect.classify(e)) {
      case CONTENTION -> new ContentionException(context + " met contention: " + e.getMessage(), e);
      case SCHEMA_MISSING ->
          new SchemaMissingException(
              context
                  + " failed: a Tenure table is missing ("
                  + e.getMessage()
                  + "); run 'tenure migrate' or open the store with migration on",
              e);
      case UNAVAILABLE ->
          new StoreUnavailableException(
              context + " failed: store unavailable: " + e.getMessage(), e);
      case CONSTRAINT ->
          new ConstraintViolationException(
              context + " violated a constraint: " + e.getMessage(), e);
      case TOO_LARGE -> tooLarge(context, e);
      case OTHER -> new StoreException(context + " failed: " + e.getMessage(), e);
    };
  }

  /**
   * Bad input, as an oversized payload is (SPEC §1.9), so callers and the CLI treat it as such: the
   * message names the database's limit, read now where the failure itself does not state it.
   */
  private IllegalArgumentException tooLarge(String context, SQLException e) {
    StringBuilder reasons = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      reasons.append(": ").append(cause.getMessage());
    }
    String limit = "";
    try (BorrowedConnection borrowed =
        dataSource == null ? null : BorrowedConnection.borrow(dataSource, dialect)) {
      if (borrowed != null) {
        limit = dialect.statementLimit(borrowed.connection()).map(l -> " (" + l + ")").orElse("");
      }
    } catch (SQLException | RuntimeException unread) {
      e.addSuppressed(unread);
    }
    return new IllegalArgumentException(
        context
            + " refused: the statement is larger than the database accepts"
            + limit
            + ": "
            + reasons
            + "; lower the queue's payload limit below it or raise the database's limit;"
            + " nothing was written",
        e);
  }

  private void checkOpen() {
    if (closed.getAsBoolean()) {
      throw new StoreUnavailableException("store " + location + " is closed", null);
    }
  }

  private static void backOff(int attempt) {
    try {
      Thread.sleep(10L * attempt * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while retrying after contention", e);
    }
  }
}
