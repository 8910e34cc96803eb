package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.ENQUEUE_BATCH;
import static io.tenure.bench.QueueBenchSupport.QUEUE;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.enqueue;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;
import static io.tenure.bench.QueueBenchSupport.rows;
import static io.tenure.bench.QueueBenchSupport.storeName;

import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.bench.QueueBenchSupport.Commits;
import io.tenure.bench.QueueBenchSupport.Rate;
import io.tenure.jdbc.JdbcStore;
import io.tenure.jdbc.QueueStatements;
import io.tenure.spi.TablePrefix;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The ceiling: Tenure's messages table driven by plain JDBC with no Tenure runtime. Each worker, on
 * its own connection, claims a batch and deletes it, until a claim finds nothing: with Tenure's own
 * statements ({@link Statements#TENURE}, the ceiling issue 5 asks for) or with the minimal loop
 * this benchmark first used ({@link Statements#MINIMAL}). Tenure's statements run on PostgreSQL
 * only (their claim is one {@code UPDATE ... RETURNING}); the minimal loop runs on MariaDB too,
 * where a claim is a locking read and an update in one transaction (issue 20 compares MariaDB's
 * drain with it).
 */
final class RawQueueRuns implements AutoCloseable {
  private final String url;
  private final TablePrefix prefix;
  private final JdbcStore store;
  private final Queue queue;
  private final String messages;

  /** The columns Tenure's claim returns, as its row mapper reads them. */
  private static final String COLUMNS =
      "id, queue, msg_key, payload, content_type, headers, priority, attempts,"
          + " max_attempts, available_at, status, owner_node, claim_token, lease_until, last_error, created_at,"
          + " finished_at, dedupe_key, msg_group";

  private RawQueueRuns(String url, TablePrefix prefix, JdbcStore store) {
    this.url = url;
    this.prefix = prefix;
    this.store = store;
    this.queue = Queue.on(store.queues(), QUEUE, QueuePolicy.defaults());
    this.messages = prefix.table("messages");
  }

  /** Opens a store on a fresh prefix only for its migrations (the table) and for pre-filling. */
  static RawQueueRuns open(String url) {
    TablePrefix prefix = freshPrefix();
    return new RawQueueRuns(url, prefix, JdbcStore.builder().url(url).prefix(prefix).build());
  }

  /**
   * Pre-fills with {@code enqueueAll}, then times {@code threads} workers running {@code
   * statements}, claiming {@code batch} at a time.
   */
  Rate drain(Statements statements, int count, int threads, int batch) throws Exception {
    truncate();
    enqueue(queue, count);
    List<Connection> connections = new ArrayList<>();
    Commits commits = new Commits(url);
    Rate rate;
    try {
      for (int i = 0; i < threads; i++) {
        connections.add(DriverManager.getConnection(url));
      }
      commits.start();
      CountDownLatch go = new CountDownLatch(1);
      List<Worker> workers = new ArrayList<>();
      boolean mariadb = url.startsWith("jdbc:mariadb:");
      if (mariadb && statements == Statements.TENURE) {
        throw new IllegalArgumentException("Tenure's statements run raw on PostgreSQL only");
      }
      for (Connection connection : connections) {
        workers.add(
            statements == Statements.TENURE
                ? new SameStatements(connection, batch, go)
                : mariadb
                    ? new MariaDbMinimalLoop(connection, batch, go, messages)
                    : new Minimal(connection, batch, go));
      }
      List<Thread> running = workers.stream().map(w -> Thread.ofPlatform().start(w)).toList();
      long start = System.nanoTime();
      go.countDown();
      for (Thread thread : running) {
        thread.join();
      }
      long nanos = System.nanoTime() - start;
      for (Worker worker : workers) {
        if (worker.failure != null) {
          throw worker.failure;
        }
      }
      long left;
      try (Connection c = DriverManager.getConnection(url)) {
        left = rows(c, messages);
      }
      if (left != 0) {
        throw new IllegalStateException(
            left + " messages left after the raw drain, which indicates a bug in it");
      }
      rate =
          new Rate(
              statements.measure,
              storeName(url),
              threads + " threads, batch " + batch,
              count,
              nanos);
    } finally {
      for (Connection connection : connections) {
        connection.close();
      }
    }
    return rate.noted(commits.counted());
  }

  /**
   * Times {@code count} messages written with Tenure's {@code enqueueAll}, 1,000 per transaction.
   */
  Rate tenureEnqueue(int count) throws SQLException {
    truncate();
    long nanos = enqueue(queue, count);
    return new Rate("Tenure enqueueAll", storeName(url), "1,000 per transaction", count, nanos);
  }

  /**
   * Times {@code count} rows of the same shape as Tenure's (same columns and values) written with
   * plain {@code addBatch}/{@code executeBatch}, 1,000 per transaction.
   */
  Rate rawInsert(int count) throws SQLException {
    truncate();
    String sql =
        "INSERT INTO "
            + messages
            + " (queue, msg_key, payload, content_type, headers, priority,"
            + " attempts, max_attempts, available_at, status, created_at, dedupe_key)"
            + " VALUES (?, NULL, ?, 'text/plain; charset=utf-8', '', 0, 0, ?, now(), 'PENDING', now(), NULL)";
    int maxAttempts = QueuePolicy.defaults().maxAttempts();
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement insert = c.prepareStatement(sql)) {
      c.setAutoCommit(false);
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        insert.setString(1, QUEUE);
        insert.setBytes(2, ("message " + i).getBytes(StandardCharsets.UTF_8));
        insert.setInt(3, maxAttempts);
        insert.addBatch();
        if ((i + 1) % ENQUEUE_BATCH == 0 || i == count - 1) {
          insert.executeBatch();
          c.commit();
        }
      }
      long nanos = System.nanoTime() - start;
      return new Rate(
          "raw JDBC batch insert", storeName(url), "1,000 per transaction", count, nanos);
    }
  }

  private void truncate() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE " + messages);
    }
  }

  @Override
  public void close() throws Exception {
    store.close();
    cleanUp(url, prefix);
  }

  /** The loops a raw drain can run; both claim and delete, each statement its own transaction. */
  enum Statements {
    /**
     * The statements Tenure's store runs on PostgreSQL for an unordered consumer: the claim is the
     * store's own ({@link QueueStatements#claim()}: the window of max(4 x batch, 1,000) rows locked
     * by its index scan with the per-key FIFO predicate, the key heads behind a one-time filter, a
     * {@code MATERIALIZED} candidate CTE, every column returned and read), then the done ({@link
     * QueueStatements#deleteIfHeld()}: {@code DELETE ... WHERE status = 'INFLIGHT' AND claim_token
     * = :token AND id IN (:ids)}, 250 ids a statement, all of a claim in one transaction, the row
     * count checked). This is the ceiling issue 5 defines.
     */
    TENURE("raw SQL drain, Tenure's statements"),
    /**
     * The loop this benchmark first used, kept for comparison: the claim returns only ids (through
     * a plain {@code IN} subquery, which on PostgreSQL may claim more rows than asked) and the
     * delete is by id alone, with no claim token.
     */
    MINIMAL("raw SQL drain, minimal: id only, delete by id");

    final String measure;

    Statements(String measure) {
      this.measure = measure;
    }
  }

  /** Claims and deletes on its own connection until a claim is empty. */
  abstract static class Worker implements Runnable {
    final Connection connection;
    final int batch;
    private final CountDownLatch go;
    final String node = UUID.randomUUID().toString();
    volatile Exception failure;

    Worker(Connection connection, int batch, CountDownLatch go) {
      this.connection = connection;
      this.batch = batch;
      this.go = go;
    }

    @Override
    public void run() {
      try {
        go.await();
        while (claimAndDelete()) {
          // until a claim finds nothing
        }
      } catch (Exception e) {
        failure = e;
      }
    }

    /**
     * @return false once a claim found nothing
     */
    abstract boolean claimAndDelete() throws SQLException;

    /** Runs a claim or a locking read and returns the ids of its rows. */
    final List<Long> readIds(PreparedStatement query) throws SQLException {
      List<Long> ids = new ArrayList<>(batch);
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          ids.add(rows.getLong(1));
        }
      }
      return ids;
    }
  }

  /** {@link Statements#TENURE}. */
  private final class SameStatements extends Worker {
    private static final int IDS_PER_DELETE = 250;
    private static final Duration LEASE = QueuePolicy.defaults().lease();
    private final QueueStatements.Statement claim;
    private final QueueStatements.Statement delete;
    private final PreparedStatement claiming;

    SameStatements(Connection connection, int batch, CountDownLatch go) throws SQLException {
      super(connection, batch, go);
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      // The store's own statements, not copies, so the ceiling cannot drift from what Tenure runs:
      // for a queue with no keyed message, the unkeyed claim the store runs first.
      QueueStatements statements = QueueStatements.of(store);
      claim = statements.unkeyedClaim().orElse(statements.claim());
      delete = statements.deleteIfHeld();
      claiming = connection.prepareStatement(claim.jdbcText(claimValues("")));
    }

    private Map<String, Object> claimValues(String token) {
      return QueueStatements.claimValues(QUEUE, batch, node, token, LEASE);
    }

    @Override
    boolean claimAndDelete() throws SQLException {
      String token = UUID.randomUUID().toString();
      claim.bind(claiming, claimValues(token));
      List<Long> ids = new ArrayList<>(batch);
      try (ResultSet rows = claiming.executeQuery()) {
        while (rows.next()) {
          ids.add(readRow(rows));
        }
      }
      connection.commit();
      if (ids.isEmpty()) {
        return false;
      }
      int deleted = 0;
      // As the store: ids as one array where the statement takes them so, else 250 a statement.
      int perDelete = delete.text().contains("ANY(:ids)") ? ids.size() : IDS_PER_DELETE;
      for (int from = 0; from < ids.size(); from += perDelete) {
        Map<String, Object> values =
            Map.of(
                "token", token, "ids", ids.subList(from, Math.min(ids.size(), from + perDelete)));
        try (PreparedStatement deleting = connection.prepareStatement(delete.jdbcText(values))) {
          delete.bind(deleting, values);
          deleted += deleting.executeUpdate();
        }
      }
      if (deleted != ids.size()) {
        connection.rollback();
        throw new IllegalStateException(
            "deleted "
                + deleted
                + " of "
                + ids.size()
                + " claimed messages, which indicates a bug in the raw drain");
      }
      connection.commit();
      return true;
    }

    /** Reads every column the way the store maps a row to a message; returns the id. */
    private long readRow(ResultSet rows) throws SQLException {
      long id = rows.getLong("id");
      rows.getString("queue");
      rows.getString("msg_key");
      rows.getBytes("payload");
      rows.getString("content_type");
      rows.getString("headers");
      rows.getInt("priority");
      rows.getInt("attempts");
      rows.getInt("max_attempts");
      rows.getObject("available_at", OffsetDateTime.class);
      rows.getString("status");
      rows.getString("owner_node");
      rows.getString("claim_token");
      rows.getObject("lease_until", OffsetDateTime.class);
      rows.getString("last_error");
      rows.getObject("created_at", OffsetDateTime.class);
      rows.getObject("finished_at", OffsetDateTime.class);
      rows.getString("dedupe_key");
      rows.getString("msg_group");
      return id;
    }
  }

  /** {@link Statements#MINIMAL}: auto-commit, so each statement is its own transaction. */
  private final class Minimal extends Worker {
    private final PreparedStatement claiming;
    private final PreparedStatement deleting;

    Minimal(Connection connection, int batch, CountDownLatch go) throws SQLException {
      super(connection, batch, go);
      claiming =
          connection.prepareStatement(
              "UPDATE "
                  + messages
                  + " SET status = 'INFLIGHT', owner_node = ?,"
                  + " claim_token = ?, lease_until = now() + interval '30 seconds', attempts = attempts + 1"
                  + " WHERE id IN (SELECT id FROM "
                  + messages
                  + " WHERE queue = ? AND status = 'PENDING'"
                  + " AND available_at <= now() ORDER BY priority DESC, id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING id");
      deleting = connection.prepareStatement("DELETE FROM " + messages + " WHERE id = ANY(?)");
    }

    @Override
    boolean claimAndDelete() throws SQLException {
      claiming.setString(1, node);
      claiming.setString(2, UUID.randomUUID().toString());
      claiming.setString(3, QUEUE);
      claiming.setInt(4, batch);
      List<Long> ids = readIds(claiming);
      if (ids.isEmpty()) {
        return false;
      }
      deleting.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
      deleting.executeUpdate();
      return true;
    }
  }
}
