package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * SQLite in WAL mode. Every write transaction is {@code BEGIN IMMEDIATE}: it takes the write lock
 * up front (waiting up to the busy timeout), so writers serialize instead of failing at commit.
 * Times are INTEGER microseconds since the epoch; the clock itself ticks in milliseconds.
 */
final class SqliteDialect extends DefaultDialect {
  /** Extended result code of a UNIQUE constraint failure. */
  private static final int SQLITE_CONSTRAINT_UNIQUE = 2067;

  private static final int SQLITE_ERROR = 1;
  private static final int SQLITE_BUSY = 5;
  private static final int SQLITE_LOCKED = 6;
  private static final int SQLITE_CANTOPEN = 14;
  private static final int SQLITE_CONSTRAINT = 19;
  private static final int SQLITE_NOTADB = 26;

  /** How long a writer waits for the write lock before SQLite reports it busy (contention). */
  static final Duration BUSY_TIMEOUT = Duration.ofSeconds(10);

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public QueueSql queueSql() {
    return new SqliteQueueSql();
  }

  @Override
  public LockSql lockSql() {
    return new SqliteLockSql();
  }

  @Override
  public ScheduleSql scheduleSql() {
    return new SqliteScheduleSql();
  }

  @Override
  public String schemaFolder() {
    return "sqlite";
  }

  @Override
  public String now() {
    return "(CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER) * 1000)";
  }

  @Override
  public String nowPlusMicros() {
    return "(" + now() + " + ?)";
  }

  @Override
  public String plusMicros(String timeColumn, String microsColumn) {
    return "(" + timeColumn + " + " + microsColumn + ")";
  }

  @Override
  public String nowMinusMicros() {
    return "(" + now() + " - ?)";
  }

  @Override
  public java.util.Optional<io.tenure.spi.LeaseStore.SessionLock> sessionLock(LockSite site) {
    // Without file identities (fileKey) a replaced lock file could not be told from the one
    // locked: such a platform fails over at lease expiry.
    return site.databaseFile()
        .filter(SqliteDialect::hasFileKey)
        .map(db -> new SqliteFileLock(SqliteFileLock.beside(db, site.prefix().value())));
  }

  private static boolean hasFileKey(java.nio.file.Path database) {
    try {
      return java.nio.file.Files.readAttributes(
                  database, java.nio.file.attribute.BasicFileAttributes.class)
              .fileKey()
          != null;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  @Override
  public java.util.Optional<java.nio.file.Path> databaseFile(Connection connection)
      throws SQLException {
    // The driver's own answer, whatever URL or data source opened it; "" for an in-memory or
    // temporary database.
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA database_list")) {
      while (rows.next()) {
        String file = rows.getString("file");
        if ("main".equals(rows.getString("name")) && file != null && !file.isEmpty()) {
          return java.util.Optional.of(java.nio.file.Path.of(file));
        }
      }
    }
    return java.util.Optional.empty();
  }

  @Override
  public String timePrecision() {
    return "microseconds stored, milliseconds clock";
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return e.getErrorCode() == SQLITE_CONSTRAINT_UNIQUE;
  }

  @Override
  public String skipLocked() {
    return "";
  }

  @Override
  public String forUpdate() {
    return "";
  }

  @Override
  public boolean writesOneAtATime() {
    return true;
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    statement.setLong(index, ChronoUnit.MICROS.between(Instant.EPOCH, value));
  }

  @Override
  public Instant getInstant(ResultSet rows, String column) throws SQLException {
    return Instant.EPOCH.plus(rows.getLong(column), ChronoUnit.MICROS);
  }

  @Override
  public @Nullable Instant getInstantOrNull(ResultSet rows, String column) throws SQLException {
    long micros = rows.getLong(column);
    return rows.wasNull() ? null : Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  @Override
  public SqlFailure classify(SQLException e) {
    int primary = e.getErrorCode() & 0xFF;
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
      return SqlFailure.CONTENTION;
    }
    if (primary == SQLITE_ERROR && message.contains("no such table")) {
      return SqlFailure.SCHEMA_MISSING;
    }
    if (primary == SQLITE_CANTOPEN || primary == SQLITE_NOTADB) {
      return SqlFailure.UNAVAILABLE;
    }
    if (primary == SQLITE_CONSTRAINT) {
      // sqlite-jdbc sets no SQLState, so the default class-23 check would miss it.
      return SqlFailure.CONSTRAINT;
    }
    return super.classify(e);
  }

  @Override
  public SqlWork prepareSession(Connection connection) throws SQLException {
    long callers = busyTimeoutMillis(connection);
    if (callers >= BUSY_TIMEOUT.toMillis()) {
      return () -> {};
    }
    setBusyTimeout(connection, BUSY_TIMEOUT.toMillis());
    return () -> setBusyTimeout(connection, callers);
  }

  private static long busyTimeoutMillis(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA busy_timeout")) {
      return rows.next() ? rows.getLong(1) : 0;
    }
  }

  private static void setBusyTimeout(Connection connection, long millis) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = " + millis);
    }
  }

  @Override
  public void prepareDatabase(Connection connection) throws SQLException {
    // Persistent in the file: the first store to open switches it, later ones find it set.
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA journal_mode = WAL")) {
      String mode = rows.next() ? rows.getString(1) : "unknown";
      if (!"wal".equalsIgnoreCase(mode)) {
        throw new SQLException(
            "the SQLite database stays in journal mode '"
                + mode
                + "' after PRAGMA journal_mode = WAL;"
                + " Tenure needs WAL so that readers never block the writer");
      }
    }
  }

  @Override
  public void begin(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
    }
  }

  @Override
  public void beginAtIsolation(Connection connection) throws SQLException {
    begin(connection); // SQLite's transactions are serializable; there is no level to skip
  }

  @Override
  public void commit(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("COMMIT");
    }
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    if (connection.getAutoCommit()) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("ROLLBACK");
      } catch (SQLException e) {
        // "no transaction is active": BEGIN itself failed, nothing to undo.
        if (!String.valueOf(e.getMessage()).contains("no transaction")) {
          throw e;
        }
      }
    }
  }

  @Override
  public void withMigrationLock(Connection connection, TablePrefix prefix, SqlWork migration)
      throws SQLException {
    // SQLite DDL is transactional and BEGIN IMMEDIATE is the database-wide write lock.
    begin(connection);
    try {
      migration.run();
      commit(connection);
    } catch (SQLException | RuntimeException e) {
      rollback(connection);
      throw e;
    }
  }
}
