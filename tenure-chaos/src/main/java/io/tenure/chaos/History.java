package io.tenure.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A chaos run's history: one table beside Tenure's ({@code <prefix>chaos_history}), written by
 * every process of the run with the database clock; a fenced register ({@code
 * <prefix>chaos_register}) that agents write with their ownership epoch; and the table lock holders
 * write under their fence ({@code <prefix>chaos_lock_writes}) with its commit-order counter ({@code
 * <prefix>chaos_lock_order}, see {@link LockWrites}). Plain JDBC on purpose: the harness must
 * observe Tenure, not go through it.
 */
public final class History implements AutoCloseable {
  private final String jdbcUrl;
  private final Flavor flavor;
  private final String table;
  private final String register;
  private final String lockWrites;
  private final String lockOrder;
  private Connection connection;

  /** The three databases' differences, here only. */
  enum Flavor {
    SQLITE("strftime('%Y-%m-%dT%H:%M:%fZ','now')", "INTEGER PRIMARY KEY AUTOINCREMENT", "TEXT"),
    POSTGRESQL("clock_timestamp()", "BIGSERIAL PRIMARY KEY", "TIMESTAMPTZ(6)"),
    MARIADB("UTC_TIMESTAMP(6)", "BIGINT AUTO_INCREMENT PRIMARY KEY", "DATETIME(6)");

    final String now;
    final String idColumn;
    final String timeType;

    Flavor(String now, String idColumn, String timeType) {
      this.now = now;
      this.idColumn = idColumn;
      this.timeType = timeType;
    }
  }

  /**
   * @param storeUrl a Tenure store URL: {@code sqlite:PATH}, {@code jdbc:postgresql:...}, {@code
   *     jdbc:mariadb:...} or {@code jdbc:mysql:...}
   * @param prefix Tenure's table prefix; the history tables take it too
   */
  public History(String storeUrl, String prefix) {
    if (storeUrl.startsWith("sqlite:")) {
      this.jdbcUrl = "jdbc:" + storeUrl;
      this.flavor = Flavor.SQLITE;
    } else if (storeUrl.startsWith("jdbc:postgresql:")) {
      this.jdbcUrl = storeUrl;
      this.flavor = Flavor.POSTGRESQL;
    } else if (storeUrl.startsWith("jdbc:mariadb:") || storeUrl.startsWith("jdbc:mysql:")) {
      this.jdbcUrl = storeUrl;
      this.flavor = Flavor.MARIADB;
    } else {
      throw new IllegalArgumentException(
          "the chaos harness runs on sqlite:, jdbc:postgresql: or jdbc:mariadb: stores, not "
              + io.tenure.Stores.maskSecrets(storeUrl));
    }
    if (!prefix.matches("[a-z][a-z0-9_]{0,29}")) {
      throw new IllegalArgumentException("bad table prefix " + prefix);
    }
    this.table = prefix + "chaos_history";
    this.register = prefix + "chaos_register";
    this.lockWrites = prefix + "chaos_lock_writes";
    this.lockOrder = prefix + "chaos_lock_order";
  }

  /** Creates the tables if missing. */
  public synchronized void create() {
    run(
        c -> {
          try (Statement statement = c.createStatement()) {
            statement.execute(
                "CREATE TABLE IF NOT EXISTS "
                    + table
                    + " (id "
                    + flavor.idColumn
                    + ", at "
                    + flavor.timeType
                    + " NOT NULL, kind VARCHAR(32) NOT NULL, node VARCHAR(64) NOT NULL,"
                    + " queue VARCHAR(128), msg_key VARCHAR(255), message BIGINT NOT NULL, agent VARCHAR(255),"
                    + " epoch BIGINT NOT NULL, token VARCHAR(64), detail VARCHAR(1000))");
            statement.execute(
                "CREATE TABLE IF NOT EXISTS "
                    + register
                    + " (agent VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " epoch BIGINT NOT NULL, node VARCHAR(64) NOT NULL)");
            statement.execute(
                "CREATE TABLE IF NOT EXISTS "
                    + lockWrites
                    + " (lock_name VARCHAR(128) NOT NULL, token BIGINT NOT NULL,"
                    + " node VARCHAR(64) NOT NULL, seq BIGINT NOT NULL,"
                    + " commit_order BIGINT NOT NULL, at "
                    + flavor.timeType
                    + " NOT NULL)");
            statement.execute(
                "CREATE TABLE IF NOT EXISTS "
                    + lockOrder
                    + " (id INTEGER NOT NULL PRIMARY KEY, n BIGINT NOT NULL)");
            statement.execute(seedLockOrder());
          }
          return null;
        });
  }

  /** Appends one event, stamped with the database clock. */
  public synchronized void record(
      HistoryEvent.Kind kind,
      String node,
      @Nullable String queue,
      @Nullable String key,
      long message,
      @Nullable String agent,
      long epoch,
      @Nullable String token,
      @Nullable String detail) {
    run(
        c -> {
          insert(c, kind, node, queue, key, message, agent, epoch, token, detail);
          return null;
        });
  }

  /**
   * Records a leadership edge seen at {@code seenAtNanos} ({@link System#nanoTime}): how long ago
   * that was is measured just before the row is written, so the event's time is that of the sample
   * however long the write took to get through.
   */
  public synchronized void recordLeading(
      HistoryEvent.Kind kind, String node, long epoch, long seenAtNanos) {
    run(
        c -> {
          long ago =
              java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - seenAtNanos);
          insert(c, kind, node, null, null, ago, null, epoch, null, null);
          return null;
        });
  }

  /**
   * Writes {@code node} at {@code epoch} into the agent's fenced register if it holds no higher
   * epoch, and records the outcome, in one transaction.
   *
   * @return whether the write was accepted
   */
  public synchronized boolean fencedWrite(String agent, String node, long epoch, boolean guarded) {
    return run(
        c -> {
          c.setAutoCommit(false);
          try {
            try (PreparedStatement seed = c.prepareStatement(insertIfAbsent())) {
              seed.setString(1, agent);
              seed.executeUpdate();
            }
            // The guard is the fencing token: a write with an older epoch than the register's is
            // refused.
            String sql =
                "UPDATE "
                    + register
                    + " SET epoch = ?, node = ? WHERE agent = ?"
                    + (guarded ? " AND epoch <= ?" : "");
            boolean accepted;
            try (PreparedStatement write = c.prepareStatement(sql)) {
              write.setLong(1, epoch);
              write.setString(2, node);
              write.setString(3, agent);
              if (guarded) {
                write.setLong(4, epoch);
              }
              accepted = write.executeUpdate() == 1;
            }
            insert(
                c,
                accepted
                    ? HistoryEvent.Kind.FENCED_WRITE_ACCEPTED
                    : HistoryEvent.Kind.FENCED_WRITE_REJECTED,
                node,
                null,
                null,
                0,
                agent,
                epoch,
                null,
                null);
            c.commit();
            return accepted;
          } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        });
  }

  /**
   * Enqueues through the transactional outbox and records it, in one transaction: the history has
   * an {@code ENQUEUED} line exactly for the messages that were committed.
   *
   * @return the message id
   */
  public synchronized long enqueueRecorded(
      io.tenure.Queue queue, io.tenure.OutgoingMessage message, @Nullable String historyKey) {
    return run(
        c -> {
          c.setAutoCommit(false);
          try {
            long id = queue.enqueue(c, message);
            insert(
                c,
                HistoryEvent.Kind.ENQUEUED,
                "supervisor",
                queue.name(),
                historyKey,
                id,
                null,
                0,
                null,
                null);
            c.commit();
            return id;
          } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        });
  }

  /**
   * The body of one fenced lock write, in the caller's open transaction on {@code c} (its own
   * connection, see {@link #openConnection}), after the fence held: takes the next number of the
   * commit-order counter, whose row stays locked until the transaction ends, then writes the row
   * into the protected table and its {@code LOCK_WRITE} history line with that number. Neither
   * commits nor rolls back.
   *
   * @return the write's place in the commit order
   */
  long lockWrite(Connection c, String lock, long token, String node, long sequence)
      throws SQLException {
    try (Statement statement = c.createStatement()) {
      statement.executeUpdate("UPDATE " + lockOrder + " SET n = n + 1 WHERE id = 1");
    }
    long order;
    try (Statement statement = c.createStatement();
        ResultSet rows = statement.executeQuery("SELECT n FROM " + lockOrder + " WHERE id = 1")) {
      if (!rows.next()) {
        throw new IllegalStateException(lockOrder + " has no counter row");
      }
      order = rows.getLong(1);
    }
    try (PreparedStatement insert =
        c.prepareStatement(
            "INSERT INTO "
                + lockWrites
                + " (lock_name, token, node, seq, commit_order, at) VALUES (?, ?, ?, ?, ?, "
                + flavor.now
                + ")")) {
      insert.setString(1, lock);
      insert.setLong(2, token);
      insert.setString(3, node);
      insert.setLong(4, sequence);
      insert.setLong(5, order);
      insert.executeUpdate();
    }
    insert(
        c,
        HistoryEvent.Kind.LOCK_WRITE,
        node,
        null,
        lock,
        order,
        null,
        token,
        null,
        "write " + sequence);
    return order;
  }

  /**
   * A new connection to the run's database, for a caller that runs transactions of its own ({@link
   * LockWrites}); the caller closes it.
   */
  Connection openConnection() throws SQLException {
    Connection c = DriverManager.getConnection(jdbcUrl);
    if (flavor == Flavor.SQLITE) {
      try (Statement statement = c.createStatement()) {
        statement.execute("PRAGMA busy_timeout = 10000");
      }
    }
    return c;
  }

  private String seedLockOrder() {
    return switch (flavor) {
      case SQLITE -> "INSERT OR IGNORE INTO " + lockOrder + " (id, n) VALUES (1, 0)";
      case POSTGRESQL ->
          "INSERT INTO " + lockOrder + " (id, n) VALUES (1, 0) ON CONFLICT (id) DO NOTHING";
      case MARIADB ->
          "INSERT INTO " + lockOrder + " (id, n) VALUES (1, 0) ON DUPLICATE KEY UPDATE id = id";
    };
  }

  private String insertIfAbsent() {
    return switch (flavor) {
      case SQLITE ->
          "INSERT OR IGNORE INTO " + register + " (agent, epoch, node) VALUES (?, 0, '')";
      case POSTGRESQL ->
          "INSERT INTO "
              + register
              + " (agent, epoch, node) VALUES (?, 0, '') ON CONFLICT (agent) DO NOTHING";
      case MARIADB ->
          "INSERT INTO "
              + register
              + " (agent, epoch, node) VALUES (?, 0, '') ON DUPLICATE KEY UPDATE agent = agent";
    };
  }

  private void insert(
      Connection c,
      HistoryEvent.Kind kind,
      String node,
      @Nullable String queue,
      @Nullable String key,
      long message,
      @Nullable String agent,
      long epoch,
      @Nullable String token,
      @Nullable String detail)
      throws SQLException {
    try (PreparedStatement insert =
        c.prepareStatement(
            "INSERT INTO "
                + table
                + " (at, kind, node, queue, msg_key, message, agent, epoch, token, detail) VALUES ("
                + flavor.now
                + ", ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, kind.name());
      insert.setString(2, node);
      setNullable(insert, 3, queue);
      setNullable(insert, 4, key);
      insert.setLong(5, message);
      setNullable(insert, 6, agent);
      insert.setLong(7, epoch);
      setNullable(insert, 8, token);
      setNullable(
          insert,
          9,
          detail == null || detail.length() <= 1000 ? detail : detail.substring(0, 1000));
      insert.executeUpdate();
    }
  }

  private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.VARCHAR);
    } else {
      statement.setString(index, value);
    }
  }

  /** Every event, in insertion order. */
  public synchronized List<HistoryEvent> readAll() {
    return run(
        c -> {
          List<HistoryEvent> events = new ArrayList<>();
          try (Statement statement = c.createStatement();
              ResultSet rows =
                  statement.executeQuery(
                      "SELECT id, at, kind, node, queue, msg_key, message, agent, epoch, token,"
                          + " detail FROM "
                          + table
                          + " ORDER BY id")) {
            while (rows.next()) {
              events.add(
                  new HistoryEvent(
                      rows.getLong(1),
                      instant(rows, 2),
                      HistoryEvent.Kind.valueOf(rows.getString(3)),
                      rows.getString(4),
                      rows.getString(5),
                      rows.getString(6),
                      rows.getLong(7),
                      rows.getString(8),
                      rows.getLong(9),
                      rows.getString(10),
                      rows.getString(11)));
            }
          }
          return events;
        });
  }

  private Instant instant(ResultSet rows, int column) throws SQLException {
    return switch (flavor) {
      case SQLITE -> Instant.parse(rows.getString(column));
      case POSTGRESQL -> rows.getObject(column, java.time.OffsetDateTime.class).toInstant();
      case MARIADB ->
          rows.getObject(column, java.time.LocalDateTime.class).toInstant(java.time.ZoneOffset.UTC);
    };
  }

  /**
   * Drops every table of the run's prefix, Tenure's and the history's: a run on a shared server
   * leaves nothing behind. (SQLite runs use a file of their own, deleted by the caller instead.)
   */
  public synchronized void dropEverything(String prefix) {
    run(
        c -> {
          List<String> tables = new ArrayList<>();
          try (ResultSet rows =
              c.getMetaData().getTables(c.getCatalog(), null, null, new String[] {"TABLE"})) {
            while (rows.next()) {
              String name = rows.getString("TABLE_NAME");
              if (name.toLowerCase(java.util.Locale.ROOT).startsWith(prefix)) {
                tables.add(name);
              }
            }
          }
          try (Statement statement = c.createStatement()) {
            for (String name : tables) {
              statement.execute(
                  "DROP TABLE IF EXISTS " + name + (flavor == Flavor.POSTGRESQL ? " CASCADE" : ""));
            }
          }
          return null;
        });
  }

  /**
   * Kills the database sessions whose client ports are {@code ports} (PostgreSQL {@code
   * pg_terminate_backend}, MariaDB {@code KILL}): a node's connections, found by its sockets.
   *
   * @return how many sessions were killed
   */
  public synchronized int killSessions(java.util.Collection<Integer> ports) {
    if (ports.isEmpty() || flavor == Flavor.SQLITE) {
      return 0;
    }
    return run(
        c -> {
          int killed = 0;
          if (flavor == Flavor.POSTGRESQL) {
            try (PreparedStatement kill =
                c.prepareStatement(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE client_port = ANY(?)"
                        + " AND pid <> pg_backend_pid()")) {
              kill.setArray(1, c.createArrayOf("integer", ports.toArray()));
              try (ResultSet rows = kill.executeQuery()) {
                rows.next();
                killed = rows.getInt(1);
              }
            }
            return killed;
          }
          List<Long> ids = new ArrayList<>();
          try (Statement statement = c.createStatement();
              ResultSet rows =
                  statement.executeQuery("SELECT ID, HOST FROM information_schema.PROCESSLIST")) {
            while (rows.next()) {
              String host = rows.getString(2);
              int colon = host == null ? -1 : host.lastIndexOf(':');
              if (colon > 0 && ports.contains(Integer.parseInt(host.substring(colon + 1)))) {
                ids.add(rows.getLong(1));
              }
            }
          }
          try (Statement statement = c.createStatement()) {
            for (long id : ids) {
              try {
                statement.execute("KILL " + id);
                killed++;
              } catch (SQLException gone) {
                // ended meanwhile
              }
            }
          }
          return killed;
        });
  }

  /**
   * Slows the database: holds locks on Tenure's lease and membership tables for {@code hold}, on a
   * connection of its own (PostgreSQL {@code LOCK TABLE} + {@code pg_sleep}, MariaDB {@code LOCK
   * TABLES} + {@code SLEEP}, SQLite the write lock for the whole file). Heartbeats and renewals
   * wait or time out meanwhile, as with a database stalled by a long lock holder.
   */
  public void holdLocks(String prefix, java.time.Duration hold) {
    double seconds = hold.toMillis() / 1000.0;
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement statement = c.createStatement()) {
      switch (flavor) {
        case POSTGRESQL -> {
          c.setAutoCommit(false);
          statement.execute(
              "LOCK TABLE " + prefix + "leases, " + prefix + "nodes IN ACCESS EXCLUSIVE MODE");
          statement.execute("SELECT pg_sleep(" + seconds + ")");
          c.commit();
        }
        case MARIADB -> {
          statement.execute("LOCK TABLES " + prefix + "leases WRITE, " + prefix + "nodes WRITE");
          statement.execute("DO SLEEP(" + seconds + ")");
          statement.execute("UNLOCK TABLES");
        }
        case SQLITE -> {
          statement.execute("PRAGMA busy_timeout = 10000");
          statement.execute("BEGIN IMMEDIATE");
          Thread.sleep(hold.toMillis());
          statement.execute("COMMIT");
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not hold the locks: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The row an operator typed in issue 15: a scheme in capitals is not an agent URI. */
  static final String UNREADABLE_AGENT = "WORKER://worker-1";

  /**
   * Edits the agent rows of {@code node} behind Tenure's back, as an operator with a SQL console
   * would: deletes some of its rows, sets one's epoch back to 1, hands one to another live node by
   * rewriting its owner and target at the same epoch, and adds a row that cannot be read ({@link
   * #UNREADABLE_AGENT}). Which rows get which edit is drawn from {@code random}.
   *
   * @return what was done, for the fault's history line
   */
  public synchronized String tamperAgents(String prefix, String node, java.util.Random random) {
    return run(
        c -> {
          String nodes = prefix + "nodes";
          String agents = prefix + "agents";
          List<String> active =
              strings(
                  c,
                  "SELECT node_id FROM " + nodes + " WHERE status = 'ACTIVE' AND name = ?",
                  node);
          if (active.isEmpty()) {
            return "no ACTIVE node named " + node;
          }
          String owner = active.get(0);
          List<String> others =
              strings(
                  c,
                  "SELECT node_id FROM "
                      + nodes
                      + " WHERE status = 'ACTIVE' AND node_id <> ?"
                      + " ORDER BY node_id",
                  owner);
          List<String> owned =
              new ArrayList<>(
                  strings(
                      c,
                      "SELECT agent_uri FROM "
                          + agents
                          + " WHERE owner_node = ?"
                          + " ORDER BY agent_uri",
                      owner));
          java.util.Collections.shuffle(owned, random);
          List<String> done = new ArrayList<>();
          for (int i = 0; i < owned.size() && i < 4; i++) {
            String agent = owned.get(i);
            if (i == 1 && !others.isEmpty()) {
              String to = others.get(random.nextInt(others.size()));
              update(
                  c,
                  "UPDATE " + agents + " SET owner_node = ?, target_node = ? WHERE agent_uri = ?",
                  to,
                  to,
                  agent);
              done.add("handed " + agent + " to " + to + " at its epoch");
            } else if (i == 2) {
              update(c, "UPDATE " + agents + " SET epoch = 1 WHERE agent_uri = ?", agent);
              done.add("set " + agent + " to epoch 1");
            } else {
              update(c, "DELETE FROM " + agents + " WHERE agent_uri = ?", agent);
              done.add("deleted " + agent);
            }
          }
          update(c, "DELETE FROM " + agents + " WHERE agent_uri = ?", UNREADABLE_AGENT);
          try (PreparedStatement insert =
              c.prepareStatement(
                  "INSERT INTO "
                      + agents
                      + " (agent_uri, owner_node, target_node, epoch, paused, pinned_to) VALUES (?, NULL, NULL, 1, ?, NULL)")) {
            insert.setString(1, UNREADABLE_AGENT);
            insert.setBoolean(2, false);
            insert.executeUpdate();
          }
          done.add("inserted '" + UNREADABLE_AGENT + "'");
          return String.join(", ", done);
        });
  }

  /** Deletes the unreadable row {@link #tamperAgents} added, as the operator who noticed would. */
  public synchronized void removeUnreadableAgent(String prefix) {
    run(
        c -> {
          update(c, "DELETE FROM " + prefix + "agents WHERE agent_uri = ?", UNREADABLE_AGENT);
          return null;
        });
  }

  private static List<String> strings(Connection c, String sql, String argument)
      throws SQLException {
    List<String> found = new ArrayList<>();
    try (PreparedStatement query = c.prepareStatement(sql)) {
      query.setString(1, argument);
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          found.add(rows.getString(1));
        }
      }
    }
    return found;
  }

  private static void update(Connection c, String sql, String... arguments) throws SQLException {
    try (PreparedStatement statement = c.prepareStatement(sql)) {
      for (int i = 0; i < arguments.length; i++) {
        statement.setString(i + 1, arguments[i]);
      }
      statement.executeUpdate();
    }
  }

  /** Drops the harness's tables (for tests and cleanup). */
  public synchronized void drop() {
    run(
        c -> {
          try (Statement statement = c.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + register);
            statement.execute("DROP TABLE IF EXISTS " + lockWrites);
            statement.execute("DROP TABLE IF EXISTS " + lockOrder);
          }
          return null;
        });
  }

  @FunctionalInterface
  private interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Runs on the one connection, reopening it once if it broke (a killed backend, a restart). */
  private <T> T run(Work<T> work) {
    SQLException last = null;
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        return work.run(connection());
      } catch (SQLException e) {
        last = e;
        closeQuietly();
      }
    }
    throw new IllegalStateException("chaos history on " + flavor + ": " + last.getMessage(), last);
  }

  private Connection connection() throws SQLException {
    if (connection == null || connection.isClosed()) {
      connection = openConnection();
    }
    return connection;
  }

  private void closeQuietly() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      // already broken
    }
    connection = null;
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }
}
