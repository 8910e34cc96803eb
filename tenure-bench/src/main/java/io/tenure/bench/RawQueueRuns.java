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
import io.tenure.spi.TablePrefix;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The ceiling: Tenure's messages table driven by plain JDBC with no Tenure runtime. Each worker
 * claims a batch in one statement and deletes it in a second, until a claim finds nothing. PostgreSQL
 * only (the claim is one {@code UPDATE ... RETURNING}).
 */
final class RawQueueRuns implements AutoCloseable {
  private final String url;
  private final TablePrefix prefix;
  private final JdbcStore store;
  private final Queue queue;
  private final String messages;

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

  /** Pre-fills with {@code enqueueAll}, then times {@code threads} workers claiming {@code batch} at a time. */
  Rate drain(int count, int threads, int batch) throws Exception {
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
      List<Worker> workers = connections.stream().map(c -> new Worker(c, batch, go)).toList();
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
      long left = rows(connections.get(0), messages);
      if (left != 0) {
        throw new IllegalStateException(left + " messages left after the raw drain, which indicates a bug in it");
      }
      rate = new Rate("raw SQL drain", storeName(url), threads + " threads, batch " + batch, count, nanos);
    } finally {
      for (Connection connection : connections) {
        connection.close();
      }
    }
    return rate.noted(commits.counted());
  }

  /** Times {@code count} messages written with Tenure's {@code enqueueAll}, 1,000 per transaction. */
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
    String sql = "INSERT INTO " + messages + " (queue, msg_key, payload, content_type, headers, priority,"
        + " attempts, max_attempts, available_at, status, created_at, dedupe_key)"
        + " VALUES (?, NULL, ?, 'text/plain; charset=utf-8', '', 0, 0, ?, now(), 'PENDING', now(), NULL)";
    int maxAttempts = QueuePolicy.defaults().maxAttempts();
    try (Connection c = DriverManager.getConnection(url); PreparedStatement insert = c.prepareStatement(sql)) {
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
      return new Rate("raw JDBC batch insert", storeName(url), "1,000 per transaction", count, nanos);
    }
  }

  private void truncate() throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("TRUNCATE " + messages);
    }
  }

  @Override
  public void close() throws Exception {
    store.close();
    cleanUp(url, prefix);
  }

  /** Claims and deletes on its own connection, each statement its own transaction, until a claim is empty. */
  private final class Worker implements Runnable {
    private final Connection connection;
    private final int batch;
    private final CountDownLatch go;
    private final String node = UUID.randomUUID().toString();
    private volatile Exception failure;

    Worker(Connection connection, int batch, CountDownLatch go) {
      this.connection = connection;
      this.batch = batch;
      this.go = go;
    }

    @Override
    public void run() {
      String claim = "UPDATE " + messages + " SET status = 'INFLIGHT', owner_node = ?, claim_token = ?,"
          + " lease_until = now() + interval '30 seconds', attempts = attempts + 1"
          + " WHERE id IN (SELECT id FROM " + messages + " WHERE queue = ? AND status = 'PENDING'"
          + " AND available_at <= now() ORDER BY priority DESC, id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING id";
      String delete = "DELETE FROM " + messages + " WHERE id = ANY(?)";
      try (PreparedStatement claiming = connection.prepareStatement(claim);
          PreparedStatement deleting = connection.prepareStatement(delete)) {
        go.await();
        List<Long> ids;
        while (!(ids = claim(claiming)).isEmpty()) {
          deleting.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
          deleting.executeUpdate();
        }
      } catch (Exception e) {
        failure = e;
      }
    }

    private List<Long> claim(PreparedStatement claiming) throws SQLException {
      claiming.setString(1, node);
      claiming.setString(2, UUID.randomUUID().toString());
      claiming.setString(3, QUEUE);
      claiming.setInt(4, batch);
      List<Long> ids = new ArrayList<>(batch);
      try (ResultSet rows = claiming.executeQuery()) {
        while (rows.next()) {
          ids.add(rows.getLong(1));
        }
      }
      return ids;
    }
  }
}
