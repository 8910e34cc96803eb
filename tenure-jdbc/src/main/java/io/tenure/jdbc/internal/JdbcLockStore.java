package io.tenure.jdbc.internal;

import io.tenure.Limits;
import io.tenure.LockInfo;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.LockGrant;
import io.tenure.spi.LockStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Named locks in {@code <prefix>locks} (SPEC §11), one row per name, never deleted. Each change is
 * one conditional write on the database clock, in a transaction that then reads the row back while
 * the write's row lock (or SQLite's write lock) is held.
 */
public final class JdbcLockStore implements LockStore {
  private static final int MAX_LIST = 10_000;

  private final Jdbc jdbc;
  private final Dialect dialect;
  private final LockSql sql;
  private final NamedStatement insert;
  private final NamedStatement takeOver;
  private final NamedStatement renew;
  private final NamedStatement release;
  private final NamedStatement held;
  private final NamedStatement fence;
  private final NamedStatement read;
  private final NamedStatement list;

  /**
   * @param jdbc the store's executor (the main pool)
   */
  public JdbcLockStore(Jdbc jdbc, TablePrefix prefix) {
    this.jdbc = jdbc;
    this.dialect = jdbc.dialect();
    this.sql = dialect.lockSql();
    var constants = LockSql.constants(dialect, prefix);
    this.insert = NamedStatement.of(sql.insert(), constants);
    this.takeOver = NamedStatement.of(sql.takeOver(), constants);
    this.renew = NamedStatement.of(sql.renew(), constants);
    this.release = NamedStatement.of(sql.release(), constants);
    this.held = NamedStatement.of(sql.held(), constants);
    this.fence = NamedStatement.of(sql.fence(), constants);
    this.read = NamedStatement.of(sql.read(), constants);
    this.list = NamedStatement.of(sql.list(), constants);
  }

  @Override
  public Optional<LockGrant> acquire(String name, String owner, String holder, Duration ttl) {
    LockInfo.checkName(name);
    LockGrant.checkOwner(owner);
    LockInfo.checkHolder(holder);
    checkTtl(ttl);
    Params params =
        Params.of("name", name).and("owner", owner).and("holder", holder).and("ttl", ttl);
    return jdbc.write(
        "acquire lock " + name + " for " + holder,
        connection -> {
          // The take-over comes first: it takes the present row's exclusive lock at once. An
          // insert tried first would, on MariaDB, share-lock the present row as a duplicate and
          // then deadlock with a rival doing the same when both went on to the update.
          if (JdbcMembershipStore.checkedCount(takeOver.update(connection, params), "take over")
              == 0) {
            if (readRow(connection, name).isPresent() || !inserted(connection, params)) {
              return Optional.empty();
            }
          }
          LockInfo row = readRow(connection, name).orElseThrow();
          return Optional.of(
              new LockGrant(name, owner, holder, row.token(), row.acquiredAt(), row.expiresAt()));
        });
  }

  private boolean inserted(Connection connection, Params params) throws SQLException {
    try {
      return JdbcMembershipStore.checkedCount(insert.update(connection, params), "insert") == 1;
    } catch (SQLException e) {
      if (sql.insertReportsDuplicates() && dialect.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public boolean renew(LockGrant grant, Duration ttl) {
    checkTtl(ttl);
    return jdbc.write(
        "renew lock " + grant.name() + " at token " + grant.token(),
        connection -> changed(renew.update(connection, scope(grant).and("ttl", ttl))));
  }

  @Override
  public boolean release(LockGrant grant, Duration keepFor) {
    Limits.checkNotNegative("a lock's keep-for time", keepFor, Limits.MAX_DURATION);
    return jdbc.write(
        "release lock " + grant.name() + " at token " + grant.token(),
        connection -> changed(release.update(connection, scope(grant).and("keep_for", keepFor))));
  }

  @Override
  public boolean holds(LockGrant grant) {
    return jdbc.read(
        "check lock " + grant.name() + " at token " + grant.token(),
        connection -> !held.ids(connection, scope(grant)).isEmpty());
  }

  @Override
  public boolean holds(Connection transaction, LockGrant grant) {
    try {
      Params params = scope(grant);
      return sql.fenceIsUpdate()
          ? changed(fence.update(transaction, params))
          : !fence.ids(transaction, params).isEmpty();
    } catch (SQLException e) {
      throw jdbc.translate(
          "fence lock "
              + grant.name()
              + " at token "
              + grant.token()
              + " in the caller's"
              + " transaction",
          e);
    }
  }

  @Override
  public Optional<LockInfo> read(String name) {
    LockInfo.checkName(name);
    return jdbc.read("read lock " + name, connection -> readRow(connection, name));
  }

  @Override
  public List<LockInfo> list(int limit) {
    if (limit < 1 || limit > MAX_LIST) {
      throw new IllegalArgumentException("limit must be 1 to 10,000, got " + limit);
    }
    return jdbc.read(
        "list locks", connection -> list.query(connection, Params.of("limit", limit), this::row));
  }

  private Optional<LockInfo> readRow(Connection connection, String name) throws SQLException {
    return read.query(connection, Params.of("name", name), this::row).stream().findFirst();
  }

  private LockInfo row(ResultSet rows) throws SQLException {
    return new LockInfo(
        rows.getString("name"),
        rows.getString("holder"),
        rows.getString("owner"),
        rows.getLong("token"),
        dialect.getInstant(rows, "acquired_at"),
        dialect.getInstant(rows, "expires_at"),
        dialect.getInstant(rows, "read_at"));
  }

  private static Params scope(LockGrant grant) {
    return Params.of("name", grant.name()).and("owner", grant.owner()).and("token", grant.token());
  }

  private static boolean changed(int count) {
    return JdbcMembershipStore.checkedCount(count, "lock write") == 1;
  }

  private static void checkTtl(Duration ttl) {
    Limits.checkPositive("a lock TTL", ttl, Limits.MAX_DURATION);
  }
}
