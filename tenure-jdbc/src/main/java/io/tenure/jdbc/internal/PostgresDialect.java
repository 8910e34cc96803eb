package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/** PostgreSQL 15+: {@code timestamptz}, {@code ON CONFLICT}, advisory locks. */
final class PostgresDialect extends DefaultDialect {

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public QueueSql queueSql() {
    return new PostgresQueueSql();
  }

  @Override
  public LockSql lockSql() {
    return new PostgresLockSql();
  }

  @Override
  public ScheduleSql scheduleSql() {
    return new PostgresScheduleSql();
  }

  @Override
  public String schemaFolder() {
    return "postgresql";
  }

  @Override
  public String now() {
    // Statement time, not transaction start: a long transaction must not see an old clock.
    return "statement_timestamp()";
  }

  @Override
  public String nowPlusMicros() {
    return "(statement_timestamp() + (? * INTERVAL '1 microsecond'))";
  }

  @Override
  public String plusMicros(String timeColumn, String microsColumn) {
    return "(" + timeColumn + " + (" + microsColumn + " * INTERVAL '1 microsecond'))";
  }

  @Override
  public String nowMinusMicros() {
    return "(statement_timestamp() - (? * INTERVAL '1 microsecond'))";
  }

  @Override
  public java.util.Optional<io.tenure.spi.LeaseStore.SessionLock> sessionLock(LockSite site) {
    return java.util.Optional.of(new PostgresSessionLock(site.connections(), site.key()));
  }

  @Override
  public String timePrecision() {
    return "microseconds";
  }

  @Override
  public boolean supportsLateral() {
    return true;
  }

  @Override
  public boolean supportsNotify() {
    return true;
  }

  @Override
  public String position(String column) {
    return "STRPOS(" + column + ", ?)";
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    statement.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
  }

  @Override
  public Instant getInstant(ResultSet rows, String column) throws SQLException {
    return rows.getObject(column, OffsetDateTime.class).toInstant();
  }

  @Override
  public @Nullable Instant getInstantOrNull(ResultSet rows, String column) throws SQLException {
    OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  @Override
  public SqlFailure classify(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return switch (state) {
      case "40001", "40P01", "55P03" -> SqlFailure.CONTENTION;
      case "42P01", "3F000" -> SqlFailure.SCHEMA_MISSING;
      // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
      case "57P01", "57P02", "57P03", "53300" -> SqlFailure.UNAVAILABLE;
      default -> super.classify(e);
    };
  }

  @Override
  public void withMigrationLock(Connection connection, TablePrefix prefix, SqlWork migration)
      throws SQLException {
    begin(connection);
    try {
      try (PreparedStatement lock =
          connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        lock.setLong(1, lockKey("tenure:migrate:" + prefix.value()));
        lock.execute();
      }
      migration.run();
      commit(connection);
    } catch (SQLException | RuntimeException e) {
      rollback(connection);
      throw e;
    }
  }
}
