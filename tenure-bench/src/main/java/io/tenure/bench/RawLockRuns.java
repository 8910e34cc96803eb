package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.bench.LockRuns.LockSystem;
import io.tenure.bench.LockRuns.Locker;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The ceiling: Tenure's {@code locks} table (migrated by a {@link JdbcStore} on a fresh prefix)
 * driven over plain JDBC with the statements Tenure's lock store runs on PostgreSQL, in the same
 * transactions, with nothing else: no pool, no argument checks, no keeper, no lock objects. Each
 * thread has its own connection with its statements prepared once.
 *
 * <p>The texts are copies of {@code StandardLockSql} and {@code PostgresLockSql} (tenure-jdbc) with
 * PostgreSQL's clock ({@code statement_timestamp()}) and microsecond arithmetic substituted as
 * {@code PostgresDialect} does; tenure-jdbc exports no lock statements, unlike its queue's.
 */
final class RawLockRuns {
  /**
   * Acquire, for a name with no row yet: its first acquisition; nothing when a rival's came first.
   */
  private static final String INSERT =
      """
      INSERT INTO %s (name, holder, owner, token, acquired_at, expires_at)
      VALUES (?, ?, ?, 1, statement_timestamp(),
        (statement_timestamp() + (? * INTERVAL '1 microsecond')))
      ON CONFLICT (name) DO NOTHING
      """;

  /** Acquire, first: take the name over if its expiry passed. */
  private static final String TAKE_OVER =
      """
      UPDATE %s SET holder = ?, owner = ?, token = token + 1,
        acquired_at = statement_timestamp(),
        expires_at = (statement_timestamp() + (? * INTERVAL '1 microsecond'))
      WHERE name = ? AND expires_at <= statement_timestamp()
      """;

  /** Acquire: the row read back, in the same transaction (also to tell held from new). */
  private static final String READ =
      "SELECT name, holder, owner, token, acquired_at, expires_at, statement_timestamp() AS read_at"
          + " FROM %s WHERE name = ?";

  /** Release, keeping the lock until {@code acquired_at + keep_for} (zero here) or now. */
  private static final String RELEASE =
      """
      UPDATE %s SET
        expires_at = CASE WHEN (acquired_at + (? * INTERVAL '1 microsecond')) > statement_timestamp()
          THEN (acquired_at + (? * INTERVAL '1 microsecond')) ELSE statement_timestamp() END,
        owner = NULL
      WHERE name = ? AND owner = ? AND token = ? AND expires_at > statement_timestamp()
      """;

  private static final long TTL_MICROS = LockRuns.TTL.toNanos() / 1000;

  private RawLockRuns() {}

  /** A held lock: what the release's WHERE names. */
  private record Held(String name, String owner, long token) {}

  static LockSystem open(String url) {
    TablePrefix prefix = freshPrefix();
    JdbcStore store = JdbcStore.builder().url(url).prefix(prefix).poolSize(2).build();
    String table = prefix.table("locks");
    return new LockSystem(
        "raw SQL, Tenure's statements",
        storeName(url),
        () -> new RawLocker(DriverManager.getConnection(url), table),
        () -> {
          store.close();
          cleanUp(url, prefix);
        });
  }

  /** One connection, one transaction per acquire and per release, as the store runs them. */
  private static final class RawLocker implements Locker {
    private final Connection connection;
    private final PreparedStatement insert;
    private final PreparedStatement takeOver;
    private final PreparedStatement read;
    private final PreparedStatement release;

    RawLocker(Connection connection, String table) throws SQLException {
      this.connection = connection;
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      insert = connection.prepareStatement(INSERT.formatted(table));
      takeOver = connection.prepareStatement(TAKE_OVER.formatted(table));
      read = connection.prepareStatement(READ.formatted(table));
      release = connection.prepareStatement(RELEASE.formatted(table));
    }

    /**
     * The store's order since ddcc968: the take-over first; when it changes nothing, a read tells a
     * held name (refused) from a new one, which the insert takes.
     */
    @Override
    public Object tryAcquire(String name) throws SQLException {
      String owner = UUID.randomUUID().toString();
      takeOver.setString(1, "bench");
      takeOver.setString(2, owner);
      takeOver.setLong(3, TTL_MICROS);
      takeOver.setString(4, name);
      if (takeOver.executeUpdate() == 0) {
        if (readRow(name) >= 0 || !inserted(name, owner)) {
          connection.commit();
          return null;
        }
      }
      long token = readRow(name);
      connection.commit();
      return new Held(name, owner, token);
    }

    private boolean inserted(String name, String owner) throws SQLException {
      insert.setString(1, name);
      insert.setString(2, "bench");
      insert.setString(3, owner);
      insert.setLong(4, TTL_MICROS);
      return insert.executeUpdate() == 1;
    }

    /** Reads every column as the store maps the row; returns the token, or -1 for no row. */
    private long readRow(String name) throws SQLException {
      read.setString(1, name);
      try (ResultSet row = read.executeQuery()) {
        if (!row.next()) {
          return -1;
        }
        row.getString("name");
        row.getString("holder");
        row.getString("owner");
        long token = row.getLong("token");
        row.getObject("acquired_at", OffsetDateTime.class);
        row.getObject("expires_at", OffsetDateTime.class);
        row.getObject("read_at", OffsetDateTime.class);
        return token;
      }
    }

    @Override
    public void release(Object held) throws SQLException {
      Held lock = (Held) held;
      release.setLong(1, 0);
      release.setLong(2, 0);
      release.setString(3, lock.name());
      release.setString(4, lock.owner());
      release.setLong(5, lock.token());
      int released = release.executeUpdate();
      connection.commit();
      if (released != 1) {
        throw new IllegalStateException(
            "the raw release of " + lock + " changed " + released + " rows, a bug in the loop");
      }
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }
}
