package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Everything that differs between databases. {@link DefaultDialect} holds standard SQL that
 * PostgreSQL and SQLite share; each database has a small subclass. Capabilities are explicit and
 * paired with the statement that uses them.
 */
public interface Dialect {
  /**
   * @return the provider's short name: {@code sqlite}, {@code postgresql} or {@code mariadb}
   */
  String name();

  /**
   * @return the folder under {@code io/tenure/jdbc/internal/schema/} holding this dialect's
   *     versioned migration files
   */
  String schemaFolder();

  /**
   * @return an SQL expression for the database clock now, in the type this dialect stores times as
   */
  String now();

  /**
   * @return an SQL expression for the database clock plus a bound parameter of microseconds (the
   *     expression contains exactly one {@code ?})
   */
  String nowPlusMicros();

  /**
   * @return an SQL expression for the database clock minus a bound parameter of microseconds (the
   *     expression contains exactly one {@code ?})
   */
  String nowMinusMicros();

  /**
   * @return an SQL expression for a stored time column plus a microseconds column, e.g. a node's
   *     last heartbeat plus its self-fence deadline
   */
  String plusMicros(String timeColumn, String microsColumn);

  /**
   * @return a session lock for the leader lease, if this database releases it when the holder's
   *     session or process ends (PostgreSQL's advisory lock, MariaDB/MySQL's {@code GET_LOCK}, an
   *     OS lock on a file beside a SQLite database); empty otherwise, and then fail-over waits for
   *     the lease to expire
   */
  java.util.Optional<io.tenure.spi.LeaseStore.SessionLock> sessionLock(LockSite site);

  /**
   * Where one store's leader lock lives: the database and table prefix name it on a server, the
   * database file places it on SQLite.
   *
   * @param connections opens connections outside any pool, one per lock
   * @param database the catalog the tables are in, so that two databases on one server lock apart
   * @param databaseFile the file behind the database (SQLite); empty for a server or an in-memory
   *     database
   */
  record LockSite(
      ConnectionSource connections,
      String database,
      TablePrefix prefix,
      java.util.Optional<java.nio.file.Path> databaseFile) {

    /**
     * @return the lock's 63-bit key: PostgreSQL locks it, MariaDB/MySQL names its lock after it
     */
    public long key() {
      return DefaultDialect.lockKey("tenure:leader:" + database + ":" + prefix.value());
    }
  }

  /**
   * @return the file that holds the database {@code connection} is on (SQLite, from {@code PRAGMA
   *     database_list}), read without creating anything; empty for a server or an in-memory
   *     database
   */
  java.util.Optional<java.nio.file.Path> databaseFile(Connection connection) throws SQLException;

  /** Opens connections that live outside any pool, e.g. for a session lock. */
  @FunctionalInterface
  interface ConnectionSource {
    /** Opens a new connection. */
    Connection open() throws SQLException;
  }

  /**
   * @return the precision of stored times, for status output
   */
  String timePrecision();

  /** Binds an instant in the stored time type, independent of JVM and session time zones. */
  void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException;

  /** Reads an instant written by {@link #setInstant} or {@link #now()}. */
  Instant getInstant(ResultSet rows, String column) throws SQLException;

  /**
   * {@link #getInstant}, or null for SQL NULL. A dialect reads the column once: a null check by
   * {@code getObject(column)} converted every PostgreSQL timestamp to a {@code java.sql.Timestamp}
   * through a calendar first, on every claimed row.
   */
  default @org.jspecify.annotations.Nullable Instant getInstantOrNull(ResultSet rows, String column)
      throws SQLException {
    return rows.getObject(column) == null ? null : getInstant(rows, column);
  }

  /**
   * @return an insert of {@code columns} into {@code table} that inserts nothing when a row with
   *     the same {@code key} exists. If {@link #insertIfAbsentReportsDuplicates()} the statement
   *     instead fails with a duplicate-key error that {@link #isDuplicateKey} recognises.
   */
  String insertIfAbsent(String table, String columns, String values, String key);

  /**
   * {@link #insertIfAbsent(String, String, String, String)} where the unique key is a partial
   * index: {@code where} is its predicate, which the conflict target must name.
   */
  String insertIfAbsent(String table, String columns, String values, String key, String where);

  /**
   * @return true if {@link #insertIfAbsent} signals a present row with an exception rather than a
   *     row count of 0
   */
  boolean insertIfAbsentReportsDuplicates();

  /**
   * @return true if {@code e} is the duplicate-key error of the primary key (and nothing else)
   */
  boolean isDuplicateKey(SQLException e);

  /**
   * @return true if {@code e} is a duplicate on any unique key. Used where the only unique key an
   *     insert can collide on is the one it means (a generated primary key cannot collide).
   */
  boolean isUniqueViolation(SQLException e);

  /**
   * @return true if {@code INSERT}/{@code UPDATE ... RETURNING} is available (PostgreSQL, SQLite);
   *     otherwise generated keys and a read after the update are used (MariaDB, MySQL)
   */
  boolean supportsReturning();

  /**
   * @return true if the database can notify listeners on commit ({@code pg_notify} and {@code
   *     LISTEN}, PostgreSQL); the others' consumers poll
   */
  boolean supportsNotify();

  /**
   * @return true if a subquery in FROM may be {@code LATERAL} and carry its own locking clause
   *     (PostgreSQL): a claim then streams through its window in order and stops at its limit
   */
  boolean supportsLateral();

  /**
   * @return an SQL expression for the 1-based position of a bound substring ({@code ?}) in {@code
   *     column}, 0 if absent: plain text, no wildcards
   */
  String position(String column);

  /**
   * @return the locking clause for a claim's candidate rows: {@code FOR UPDATE SKIP LOCKED} on
   *     servers, nothing on SQLite (whose write transactions already run one at a time)
   */
  String skipLocked();

  /**
   * @return the locking clause that holds read rows until commit: {@code FOR UPDATE} on servers,
   *     nothing on SQLite
   */
  String forUpdate();

  /**
   * @return true if write transactions run one at a time (SQLite's {@code BEGIN IMMEDIATE}): no
   *     peer commits while one runs, so a write needs no lock against a peer's commit and no
   *     re-check after one (a replay's key lock, a claim's key re-check)
   */
  boolean writesOneAtATime();

  /**
   * @return this database's queue statements, which sit beside it ({@code PostgresQueueSql} and so
   *     on)
   */
  QueueSql queueSql();

  /**
   * @return this database's named-lock statements, which sit beside it ({@code PostgresLockSql} and
   *     so on)
   */
  LockSql lockSql();

  /**
   * @return this database's schedule statements, which sit beside it ({@code PostgresScheduleSql}
   *     and so on)
   */
  ScheduleSql scheduleSql();

  /**
   * @return an insert that overwrites the non-key {@code updated} columns on a duplicate key: last
   *     writer wins. Used only where SPEC allows an upsert.
   */
  String upsert(String table, String columns, String values, String key, String updated);

  /** Classifies a failure; the one place SQLState and vendor codes are read. */
  SqlFailure classify(SQLException e);

  /**
   * @return the database's limit on the size of one statement, read now on {@code connection}, as
   *     the setting that holds it (e.g. {@code max_allowed_packet = 16777216 bytes}), for the
   *     message of a {@link SqlFailure#TOO_LARGE} failure; empty where no such setting exists
   */
  java.util.Optional<String> statementLimit(Connection connection) throws SQLException;

  /**
   * Prepares a just-borrowed connection for Tenure's work and returns how to undo that before the
   * connection goes back to its pool. SQLite MUST get at least Tenure's busy timeout here: a
   * caller's data source may have none, and a writer would then fail at once instead of queueing.
   */
  SqlWork prepareSession(Connection connection) throws SQLException;

  /**
   * Prepares the database when a store opens, before migration. SQLite MUST end up in WAL mode
   * (readers never block the writer) or fail naming the mode it is in.
   */
  void prepareDatabase(Connection connection) throws SQLException;

  /** Starts a write transaction on a connection in auto-commit mode. */
  void begin(Connection connection) throws SQLException;

  /**
   * Like {@link #begin}, on a connection known to be at the isolation Tenure uses already (a pool
   * of Tenure's own, configured so): no isolation round trips.
   */
  default void beginAtIsolation(Connection connection) throws SQLException {
    begin(connection);
  }

  /** Commits what {@link #begin} started and returns the connection to auto-commit. */
  void commit(Connection connection) throws SQLException;

  /** Rolls back what {@link #begin} started and returns the connection to auto-commit. */
  void rollback(Connection connection) throws SQLException;

  /**
   * Runs {@code migration} while holding this database's migration lock for {@code prefix}, so that
   * nodes starting at once migrate one after the other.
   */
  void withMigrationLock(Connection connection, TablePrefix prefix, SqlWork migration)
      throws SQLException;

  /** A unit of JDBC work. */
  @FunctionalInterface
  interface SqlWork {
    /** Does the work. */
    void run() throws SQLException;
  }
}
