package io.tenure.jdbc.internal;

import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * The leader lease in {@code <prefix>leases}, row {@code 'leader'} (seeded by the migration with
 * epoch 0, expired). Every change is one conditional UPDATE on the database clock; the row is then
 * read back in the same transaction, while the UPDATE's row lock (or SQLite's write lock) is held.
 */
public final class JdbcLeaseStore implements LeaseStore {
  static final String LEADER = "leader";

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final String leases;
  private final String fenceQuery;
  private final Dialect.LockSite lockSite;

  /**
   * @param jdbc an executor with its own connections and statement timeout (the coordination pool)
   * @param lockSite where the leader's session lock lives: unpooled connections, the database and
   *     prefix that name it, the SQLite file it sits beside
   */
  public JdbcLeaseStore(Jdbc jdbc, TablePrefix prefix, Dialect.LockSite lockSite) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.leases = prefix.table("leases");
    this.fenceQuery = new Fences(dialect, prefix).leaderQuery();
    this.lockSite = lockSite;
  }

  @Override
  public Optional<Lease> acquire(String nodeId, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    // Assignment order matters on MySQL/MariaDB, which evaluate SET left to right with new values:
    // epoch and acquired_at must read the old holder, so holder is assigned after them.
    String sql =
        "UPDATE "
            + leases
            + " SET"
            + " epoch = CASE WHEN holder = ? THEN epoch ELSE epoch + 1 END,"
            + " acquired_at = CASE WHEN holder = ? THEN acquired_at ELSE "
            + dialect.now()
            + " END,"
            + " holder = ?, expires_at = "
            + dialect.nowPlusMicros()
            + ", lock_epoch = NULL"
            + " WHERE name = '"
            + LEADER
            + "' AND (holder = ? OR expires_at <= "
            + dialect.now()
            + ")";
    return change(
        "acquire the leader lease for " + nodeId,
        sql,
        statement -> {
          statement.setString(1, nodeId);
          statement.setString(2, nodeId);
          statement.setString(3, nodeId);
          statement.setLong(4, Rows.micros(ttl));
          statement.setString(5, nodeId);
        });
  }

  @Override
  public Optional<Lease> renew(String nodeId, long epoch, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    String sql =
        "UPDATE "
            + leases
            + " SET expires_at = "
            + dialect.nowPlusMicros()
            + " WHERE name = '"
            + LEADER
            + "' AND holder = ? AND epoch = ?";
    return change(
        "renew the leader lease of " + nodeId + " at epoch " + epoch,
        sql,
        statement -> {
          statement.setLong(1, Rows.micros(ttl));
          statement.setString(2, nodeId);
          statement.setLong(3, epoch);
        });
  }

  @Override
  public boolean release(String nodeId, long epoch) {
    String sql =
        "UPDATE "
            + leases
            + " SET expires_at = "
            + dialect.now()
            + " WHERE name = '"
            + LEADER
            + "' AND holder = ? AND epoch = ? AND expires_at > "
            + dialect.now();
    return jdbc.write(
        "release the leader lease of " + nodeId,
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, sql)) {
            statement.setString(1, nodeId);
            statement.setLong(2, epoch);
            return JdbcMembershipStore.checkedCount(statement.executeUpdate(), "lease release")
                == 1;
          }
        });
  }

  @Override
  public boolean recordSessionLock(String nodeId, long epoch) {
    String sql =
        "UPDATE "
            + leases
            + " SET lock_epoch = epoch"
            + " WHERE name = '"
            + LEADER
            + "' AND holder = ? AND epoch = ? AND expires_at > "
            + dialect.now();
    return jdbc.write(
        "record the session lock of " + nodeId + " at epoch " + epoch,
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, sql)) {
            statement.setString(1, nodeId);
            statement.setLong(2, epoch);
            // MariaDB counts changed rows, not matched ones: recording twice may count 0.
            statement.executeUpdate();
          }
          Lease after = readRow(connection);
          return after.heldBy(nodeId) && after.epoch() == epoch && after.sessionLocked();
        });
  }

  @Override
  public Optional<Lease> takeOver(
      String nodeId, String observedHolder, long observedEpoch, Duration ttl) {
    LeaseStore.checkTtl(ttl);
    String sql =
        "UPDATE "
            + leases
            + " SET epoch = epoch + 1, acquired_at = "
            + dialect.now()
            + ", holder = ?, expires_at = "
            + dialect.nowPlusMicros()
            + ", lock_epoch = NULL"
            + " WHERE name = '"
            + LEADER
            + "' AND holder = ? AND epoch = ? AND lock_epoch = epoch";
    return change(
        "take over the leader lease for " + nodeId,
        sql,
        statement -> {
          statement.setString(1, nodeId);
          statement.setLong(2, Rows.micros(ttl));
          statement.setString(3, observedHolder);
          statement.setLong(4, observedEpoch);
        });
  }

  @Override
  public Lease read() {
    return jdbc.read("read the leader lease", this::readRow);
  }

  @Override
  public boolean isCurrent(LeaderFence fence) {
    return jdbc.read(
        "check leader fence",
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, fenceQuery)) {
            Fences.bindLeader(statement, 1, fence);
            try (ResultSet rows = statement.executeQuery()) {
              return rows.next();
            }
          }
        });
  }

  /** The session lock's key, for tests that find its holder in {@code pg_locks}. */
  long sessionLockKey() {
    return lockSite.key();
  }

  /**
   * Creates nothing: a SQLite lock file is created by the first {@link SessionLock#hold()}, which
   * only a node that can lead makes.
   */
  @Override
  public Optional<SessionLock> sessionLock() {
    return dialect.sessionLock(lockSite);
  }

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private Optional<Lease> change(String what, String sql, Binder binder) {
    return jdbc.write(
        what,
        connection -> {
          try (PreparedStatement statement = jdbc.prepare(connection, sql)) {
            binder.bind(statement);
            if (JdbcMembershipStore.checkedCount(statement.executeUpdate(), what) == 0) {
              return Optional.<Lease>empty();
            }
          }
          return Optional.of(readRow(connection));
        });
  }

  private Lease readRow(Connection connection) throws SQLException {
    String sql =
        "SELECT holder, epoch, expires_at, acquired_at, lock_epoch, "
            + dialect.now()
            + " AS read_at FROM "
            + leases
            + " WHERE name = '"
            + LEADER
            + "'";
    try (PreparedStatement statement = jdbc.prepare(connection, sql);
        ResultSet rows = statement.executeQuery()) {
      if (!rows.next()) {
        throw new io.tenure.SchemaMissingException(
            "the leader lease row is missing from " + leases + "; run 'tenure migrate'", null);
      }
      String holder = rows.getString("holder");
      long epoch = rows.getLong("epoch");
      long lockEpoch = rows.getLong("lock_epoch");
      boolean locked = !rows.wasNull() && holder != null && lockEpoch == epoch;
      return new Lease(
          holder,
          epoch,
          dialect.getInstant(rows, "expires_at"),
          holder == null ? null : dialect.getInstant(rows, "acquired_at"),
          dialect.getInstant(rows, "read_at"),
          locked);
    }
  }
}
