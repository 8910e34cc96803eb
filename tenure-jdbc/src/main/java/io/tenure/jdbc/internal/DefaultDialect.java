package io.tenure.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Standard SQL shared by PostgreSQL and SQLite ({@code ON CONFLICT}), and SQLState-based error
 * classes that every database honours. Subclasses override only what differs.
 */
abstract class DefaultDialect implements Dialect {

  @Override
  public String insertIfAbsent(String table, String columns, String values, String key) {
    return "INSERT INTO "
        + table
        + " ("
        + columns
        + ") VALUES ("
        + values
        + ") ON CONFLICT ("
        + key
        + ") DO NOTHING";
  }

  @Override
  public String insertIfAbsent(
      String table, String columns, String values, String key, String where) {
    return "INSERT INTO "
        + table
        + " ("
        + columns
        + ") VALUES ("
        + values
        + ") ON CONFLICT ("
        + key
        + ") WHERE "
        + where
        + " DO NOTHING";
  }

  @Override
  public boolean insertIfAbsentReportsDuplicates() {
    return false;
  }

  @Override
  public boolean isDuplicateKey(SQLException e) {
    return false;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return "23505".equals(e.getSQLState());
  }

  @Override
  public boolean supportsReturning() {
    return true;
  }

  @Override
  public boolean supportsLateral() {
    return false;
  }

  @Override
  public boolean supportsNotify() {
    return false;
  }

  @Override
  public String position(String column) {
    return "INSTR(" + column + ", ?)";
  }

  @Override
  public String skipLocked() {
    return " FOR UPDATE SKIP LOCKED";
  }

  @Override
  public String forUpdate() {
    return " FOR UPDATE";
  }

  @Override
  public boolean writesOneAtATime() {
    return false;
  }

  @Override
  public String upsert(String table, String columns, String values, String key, String updated) {
    String set =
        Arrays.stream(updated.split(","))
            .map(String::strip)
            .map(c -> c + " = excluded." + c)
            .collect(Collectors.joining(", "));
    return "INSERT INTO "
        + table
        + " ("
        + columns
        + ") VALUES ("
        + values
        + ") ON CONFLICT ("
        + key
        + ") DO UPDATE SET "
        + set;
  }

  @Override
  public java.util.Optional<io.tenure.spi.LeaseStore.SessionLock> sessionLock(LockSite site) {
    return java.util.Optional.empty();
  }

  @Override
  public java.util.Optional<java.nio.file.Path> databaseFile(Connection connection)
      throws SQLException {
    return java.util.Optional.empty();
  }

  @Override
  public SqlFailure classify(SQLException e) {
    if (e instanceof SQLTransientConnectionException
        || e instanceof SQLNonTransientConnectionException) {
      return SqlFailure.UNAVAILABLE;
    }
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (state.startsWith("08") || state.startsWith("28")) {
      return SqlFailure.UNAVAILABLE;
    }
    if (state.equals("40001") || state.equals("40P01")) {
      return SqlFailure.CONTENTION;
    }
    if (state.equals("42S02")) {
      return SqlFailure.SCHEMA_MISSING;
    }
    if (state.startsWith("23")) {
      return SqlFailure.CONSTRAINT;
    }
    return SqlFailure.OTHER;
  }

  @Override
  public java.util.Optional<String> statementLimit(Connection connection) throws SQLException {
    return java.util.Optional.empty();
  }

  @Override
  public SqlWork prepareSession(Connection connection) throws SQLException {
    return () -> {};
  }

  @Override
  public void prepareDatabase(Connection connection) throws SQLException {
    // Servers need nothing per database: their settings are the server's or the session's.
  }

  @Override
  public void begin(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
  }

  @Override
  public void beginAtIsolation(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
  }

  @Override
  public void commit(Connection connection) throws SQLException {
    connection.commit();
    connection.setAutoCommit(true);
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    try {
      connection.rollback();
    } finally {
      connection.setAutoCommit(true);
    }
  }

  /**
   * @return a stable 63-bit key for an advisory lock named after {@code text}
   */
  static long lockKey(String text) {
    long hash = 1125899906842597L;
    for (int i = 0; i < text.length(); i++) {
      hash = 31 * hash + text.charAt(i);
    }
    return hash & Long.MAX_VALUE;
  }
}
