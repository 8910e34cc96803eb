package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * MariaDB 10.11 and MySQL 8. Times are {@code DATETIME(6)} holding UTC and the clock is {@code
 * UTC_TIMESTAMP(6)}, so the session time zone never changes a result. Insert-if-absent is a plain
 * insert whose primary-key duplicate error is the "already there" answer: {@code INSERT IGNORE}
 * would also silence truncation and other errors.
 */
final class MariaDbDialect extends DefaultDialect {
  private static final int ER_DUP_ENTRY = 1062;
  private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
  private static final int ER_LOCK_DEADLOCK = 1213;
  private static final int ER_NO_SUCH_TABLE = 1146;
  private static final int ER_BAD_DB_ERROR = 1049;
  private static final int ER_ACCESS_DENIED = 1045;
  private static final int ER_CONNECTION_KILLED = 1927;
  private static final int ER_SERVER_SHUTDOWN = 1053;

  /**
   * The server read a statement longer than its {@code max_allowed_packet} (and then closes the
   * connection).
   */
  private static final int ER_NET_PACKET_TOO_LARGE = 1153;

  /**
   * The driver's own refusal of a statement longer than its {@code maxAllowedPacket} (Tenure's
   * pools set it to the server's limit), in the driver's words, which no server setting translates.
   */
  private static final String DRIVER_PACKET_LIMIT = "max_allowed_packet";

  private static final int MIGRATION_LOCK_SECONDS = 60;

  /**
   * The last quoted name in a duplicate-entry message is the key: {@code 'PRIMARY'} (MariaDB, MySQL
   * before 8.0.19) or {@code 'table.PRIMARY'} (MySQL 8.0.19+). Key names are never translated and
   * come after the entry value in every language, so this holds whatever {@code lc_messages}.
   */
  private static final Pattern PRIMARY_KEY_LAST = Pattern.compile("'(?:[^']*\\.)?PRIMARY'[^']*$");

  private final String product;

  MariaDbDialect(String product) {
    this.product = product;
  }

  @Override
  public String name() {
    return product;
  }

  @Override
  public QueueSql queueSql() {
    return new MariaDbQueueSql();
  }

  @Override
  public LockSql lockSql() {
    return new MariaDbLockSql();
  }

  @Override
  public ScheduleSql scheduleSql() {
    return new MariaDbScheduleSql();
  }

  @Override
  public String schemaFolder() {
    return "mariadb";
  }

  @Override
  public String now() {
    return "UTC_TIMESTAMP(6)";
  }

  @Override
  public String nowPlusMicros() {
    return "(UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND)";
  }

  @Override
  public String plusMicros(String timeColumn, String microsColumn) {
    return "(" + timeColumn + " + INTERVAL " + microsColumn + " MICROSECOND)";
  }

  @Override
  public String nowMinusMicros() {
    return "(UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND)";
  }

  @Override
  public String timePrecision() {
    return "microseconds";
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    statement.setObject(index, LocalDateTime.ofInstant(value, ZoneOffset.UTC));
  }

  @Override
  public Instant getInstant(ResultSet rows, String column) throws SQLException {
    return rows.getObject(column, LocalDateTime.class).toInstant(ZoneOffset.UTC);
  }

  @Override
  public @Nullable Instant getInstantOrNull(ResultSet rows, String column) throws SQLException {
    LocalDateTime value = rows.getObject(column, LocalDateTime.class);
    return value == null ? null : value.toInstant(ZoneOffset.UTC);
  }

  @Override
  public String insertIfAbsent(String table, String columns, String values, String key) {
    return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ")";
  }

  @Override
  public String insertIfAbsent(
      String table, String columns, String values, String key, String where) {
    return insertIfAbsent(table, columns, values, key);
  }

  @Override
  public boolean insertIfAbsentReportsDuplicates() {
    return true;
  }

  @Override
  public boolean isDuplicateKey(SQLException e) {
    return e.getErrorCode() == ER_DUP_ENTRY
        && e.getMessage() != null
        && PRIMARY_KEY_LAST.matcher(e.getMessage()).find();
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return e.getErrorCode() == ER_DUP_ENTRY;
  }

  @Override
  public boolean supportsReturning() {
    return false;
  }

  @Override
  public String upsert(String table, String columns, String values, String key, String updated) {
    StringBuilder set = new StringBuilder();
    for (String column : updated.split(",")) {
      String c = column.strip();
      set.append(set.isEmpty() ? "" : ", ").append(c).append(" = VALUES(").append(c).append(')');
    }
    return "INSERT INTO "
        + table
        + " ("
        + columns
        + ") VALUES ("
        + values
        + ") ON DUPLICATE KEY UPDATE "
        + set;
  }

  @Override
  public SqlFailure classify(SQLException e) {
    // Before the connection rules: both refusals also end the connection, yet they are bad input.
    if (e.getErrorCode() == ER_NET_PACKET_TOO_LARGE || refusedByTheDriversPacketLimit(e)) {
      return SqlFailure.TOO_LARGE;
    }
    return switch (e.getErrorCode()) {
      case ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT -> SqlFailure.CONTENTION;
      case ER_NO_SUCH_TABLE, ER_BAD_DB_ERROR -> SqlFailure.SCHEMA_MISSING;
      case ER_ACCESS_DENIED, ER_CONNECTION_KILLED, ER_SERVER_SHUTDOWN -> SqlFailure.UNAVAILABLE;
      default -> super.classify(e);
    };
  }

  private static boolean refusedByTheDriversPacketLimit(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(DRIVER_PACKET_LIMIT)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public java.util.Optional<io.tenure.spi.LeaseStore.SessionLock> sessionLock(LockSite site) {
    return java.util.Optional.of(new MariaDbSessionLock(site.connections(), site.key()));
  }

  @Override
  public java.util.Optional<String> statementLimit(Connection connection) throws SQLException {
    try (PreparedStatement read = connection.prepareStatement("SELECT @@max_allowed_packet");
        ResultSet rows = read.executeQuery()) {
      return rows.next()
          ? java.util.Optional.of("max_allowed_packet = " + rows.getLong(1) + " bytes")
          : java.util.Optional.empty();
    }
  }

  @Override
  public void withMigrationLock(Connection connection, TablePrefix prefix, SqlWork migration)
      throws SQLException {
    // DDL commits implicitly here, so the lock is a named session lock, not a transaction.
    String lockName = "tenure:migrate:" + lockKey(catalog(connection) + ":" + prefix.value());
    try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
      lock.setString(1, lockName);
      lock.setInt(2, MIGRATION_LOCK_SECONDS);
      try (ResultSet rows = lock.executeQuery()) {
        if (!rows.next() || rows.getInt(1) != 1) {
          throw new SQLException(
              "could not take migration lock "
                  + lockName
                  + " within "
                  + MIGRATION_LOCK_SECONDS
                  + " s",
              "40001",
              ER_LOCK_WAIT_TIMEOUT);
        }
      }
    }
    try {
      migration.run();
    } catch (SQLException | RuntimeException e) {
      // The migration's own failure is the one to report; a failed release rides along with it.
      try {
        releaseLock(connection, lockName);
      } catch (SQLException | RuntimeException releaseFailure) {
        e.addSuppressed(releaseFailure);
      }
      throw e;
    }
    releaseLock(connection, lockName);
  }

  private static void releaseLock(Connection connection, String lockName) throws SQLException {
    try (PreparedStatement unlock = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
      unlock.setString(1, lockName);
      unlock.execute();
    }
  }

  private static String catalog(Connection connection) throws SQLException {
    String catalog = connection.getCatalog();
    return catalog == null ? "" : catalog;
  }
}
