package io.tenure.bench;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.spi.TablePrefix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the queue benchmark's runs share: table prefixes, clean-up, pre-filling, waiting, results.
 */
final class QueueBenchSupport {
  /** How long one drain may take before the run is reported as not finished. */
  static final Duration BOUND = Duration.ofSeconds(120);

  /** Messages per {@code enqueueAll} (the store's maximum) and per raw insert batch. */
  static final int ENQUEUE_BATCH = 1000;

  /** The queue every run uses. */
  static final String QUEUE = "bench";

  private QueueBenchSupport() {}

  /**
   * One throughput figure: {@code messages} handled (or written) in {@code nanos}; {@code note}
   * says where the time went, or is empty.
   */
  record Rate(String measure, String store, String setting, int messages, long nanos, String note) {
    Rate(String measure, String store, String setting, int messages, long nanos) {
      this(measure, store, setting, messages, nanos, "");
    }

    double perSecond() {
      return messages / (nanos / 1e9);
    }

    static Rate notFinished(String measure, String store, String setting, int messages) {
      return new Rate(measure, store, setting, messages, Long.MAX_VALUE, "");
    }

    boolean finished() {
      return nanos != Long.MAX_VALUE;
    }

    /**
     * @return this rate with {@code more} appended to its note
     */
    Rate noted(String more) {
      if (more.isEmpty()) {
        return this;
      }
      return new Rate(
          measure, store, setting, messages, nanos, note.isEmpty() ? more : note + ", " + more);
    }
  }

  /**
   * Counts the transactions a run commits, from PostgreSQL's per-database statistics; other
   * sessions on the database count too, so a quiet database is assumed. Nothing on other databases.
   */
  static final class Commits {
    /** PostgreSQL publishes a session's counts at most once a second, and when it ends. */
    private static final Duration PUBLISHED = Duration.ofMillis(1_100);

    private final String url;
    private long before = -1;

    Commits(String url) {
      this.url = url;
    }

    void start() throws SQLException {
      before = read();
    }

    /**
     * @return "N commits" since {@link #start()}, or "" where they cannot be counted
     */
    String counted() throws Exception {
      if (before < 0) {
        return "";
      }
      Thread.sleep(PUBLISHED.toMillis());
      return String.format(Locale.ROOT, "%,d commits", read() - before);
    }

    private long read() throws SQLException {
      if (!url.startsWith("jdbc:postgresql:")) {
        return -1;
      }
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  /** Remembers when the first of many handlers ran. */
  static final class FirstSeen {
    private final AtomicLong at = new AtomicLong();

    void seen() {
      if (at.get() == 0) {
        at.compareAndSet(0, System.nanoTime());
      }
    }

    /**
     * @return "first after N ms" counted from {@code start}, or "none"
     */
    String since(long start) {
      long first = at.get();
      return first == 0 ? "none handled" : "first after " + ms(first - start);
    }
  }

  /**
   * Pickup latency of {@code messages} messages sent one at a time, in nanoseconds; {@code first}
   * is that of the first message handled, which found the consumer polling an idle queue.
   */
  record Latency(String store, int messages, long first, long p50, long p90, long p99, long max) {}

  static TablePrefix freshPrefix() {
    return TablePrefix.of("qb" + UUID.randomUUID().toString().substring(0, 6) + "_");
  }

  /** The JDBC form of a store URL: {@code sqlite:PATH} becomes {@code jdbc:sqlite:PATH}. */
  static String jdbcUrl(String url) {
    return url.startsWith("sqlite:") ? "jdbc:sqlite:" + url.substring("sqlite:".length()) : url;
  }

  /** A short name for the table: PostgreSQL, MariaDB or SQLite. */
  static String storeName(String url) {
    if (url.startsWith("sqlite:")) {
      return "SQLite";
    }
    return url.startsWith("jdbc:postgresql:") ? "PostgreSQL" : "MariaDB";
  }

  /**
   * Leaves nothing behind: drops the prefix's tables, or deletes a SQLite file with its journals.
   */
  static void cleanUp(String url, TablePrefix prefix) throws Exception {
    if (url.startsWith("sqlite:")) {
      String file = url.substring("sqlite:".length());
      for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
        Files.deleteIfExists(Path.of(file + suffix));
      }
      return;
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          c.getMetaData()
              .getTables(c.getCatalog(), null, prefix.value() + "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_NAME"));
        }
      }
      for (String table : tables) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
    }
  }

  /** Enqueues {@code count} small text messages with {@code enqueueAll}, 1,000 per transaction. */
  static long enqueue(Queue queue, int count) {
    return enqueue(queue, count, 0);
  }

  /** As {@link #enqueue(Queue, int)}, spread round robin over {@code groups} groups if above 0. */
  static long enqueue(Queue queue, int count, int groups) {
    long start = System.nanoTime();
    for (int from = 0; from < count; from += ENQUEUE_BATCH) {
      List<OutgoingMessage> batch = new ArrayList<>(ENQUEUE_BATCH);
      for (int i = from; i < Math.min(count, from + ENQUEUE_BATCH); i++) {
        OutgoingMessage message = OutgoingMessage.text("message " + i);
        batch.add(groups > 0 ? message.group("g" + i % groups) : message);
      }
      queue.enqueueAll(batch);
    }
    return System.nanoTime() - start;
  }

  /** Rows left in {@code table}. */
  static long rows(Connection connection, String table) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  interface Condition {
    boolean holds() throws Exception;
  }

  /** Polls every {@code every} until the condition holds; false if {@link #BOUND} passed first. */
  static boolean await(Duration every, Condition condition) throws Exception {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(every.toMillis());
    }
    return true;
  }

  static String ms(long nanos) {
    return String.format(Locale.ROOT, "%,.0f ms", nanos / 1e6);
  }

  static String ms1(long nanos) {
    return String.format(Locale.ROOT, "%,.1f ms", nanos / 1e6);
  }

  static String count(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }
}
