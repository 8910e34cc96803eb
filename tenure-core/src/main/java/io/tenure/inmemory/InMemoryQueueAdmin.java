package io.tenure.inmemory;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.MessageQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory queue store's reads and operator writes (SPEC §6.7): find, list, replay and purge
 * of dead letters, retention, stats. Apart from the claim and resolve path, which is where the
 * store's rules on claims and guards live; each call is one step under the tables' monitor, like
 * the rest of the store.
 */
final class InMemoryQueueAdmin {
  private final InMemoryStore store;

  InMemoryQueueAdmin(InMemoryStore store) {
    this.store = store;
  }

  Optional<QueueMessage> find(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return Optional.ofNullable(t.messages.find(id)).map(Row::snapshot);
    }
  }

  List<QueueMessage> list(MessageQuery query) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return matching(t, query, store.now(), query.status())
          .filter(row -> row.id > query.afterId())
          .limit(query.limit())
          .map(Row::snapshot)
          .toList();
    }
  }

  int replay(MessageQuery deadLetters) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      List<Row> dead =
          matching(t, deadLetters, now, MessageStatus.DEAD).limit(deadLetters.limit()).toList();
      dead.forEach(row -> replay(row, now));
      return dead.size();
    }
  }

  boolean replay(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.find(id);
      if (row == null || row.status != MessageStatus.DEAD) {
        return false;
      }
      replay(row, store.now());
      return true;
    }
  }

  private static void replay(Row row, Instant now) {
    row.attempts = 0;
    row.repend(now);
  }

  int purge(MessageQuery deadLetters) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      List<Row> dead =
          matching(t, deadLetters, store.now(), MessageStatus.DEAD)
              .limit(deadLetters.limit())
              .toList();
      dead.forEach(t.messages::delete);
      return dead.size();
    }
  }

  int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    ClusterTables t = store.clusterTables();
    InMemoryQueueStore.checkLimit(limit);
    synchronized (t) {
      Instant now = store.now();
      List<Row> expired =
          Stream.concat(
                  Stream.concat(
                      finishedBy(t, queue, MessageStatus.DONE, now.minus(doneFor), now, limit),
                      finishedBy(
                          t, queue, MessageStatus.CANCELLED, now.minus(deadFor), now, limit)),
                  finishedBy(t, queue, MessageStatus.DEAD, now.minus(deadFor), now, limit))
              .toList();
      expired.forEach(t.messages::delete);
      return expired.size();
    }
  }

  /**
   * Up to {@code limit} rows of {@code status} finished at or before {@code cutoff}, oldest first.
   */
  private static Stream<Row> finishedBy(
      ClusterTables t, String queue, MessageStatus status, Instant cutoff, Instant now, int limit) {
    return t.messages.rows(queue).stream()
        .filter(row -> row.status == status && !row.finishedAt.isAfter(cutoff))
        .filter(row -> row.dedupeKey == null || !row.keptForWindow(now))
        .sorted(Comparator.comparing((Row row) -> row.finishedAt).thenComparingLong(row -> row.id))
        .limit(limit);
  }

  List<QueueStats> stats() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return t.messages.byQueue().entrySet().stream()
          .map(e -> stats(e.getKey(), e.getValue().values(), now))
          .toList();
    }
  }

  private static QueueStats stats(String queue, java.util.Collection<Row> rows, Instant now) {
    long[] counts = new long[MessageStatus.values().length];
    rows.forEach(row -> counts[row.status.ordinal()]++);
    Duration oldestPendingAge =
        rows.stream()
            .filter(row -> row.available(now))
            .map(row -> row.availableAt)
            .min(Comparator.naturalOrder())
            .map(oldest -> Duration.between(oldest, now))
            .orElse(null);
    return new QueueStats(
        queue,
        counts[MessageStatus.PENDING.ordinal()],
        counts[MessageStatus.INFLIGHT.ordinal()],
        counts[MessageStatus.DEAD.ordinal()],
        counts[MessageStatus.DONE.ordinal()],
        counts[MessageStatus.CANCELLED.ordinal()],
        oldestPendingAge);
  }

  /**
   * The rows of the query's queue, in id order, matching every set filter ({@code afterId} aside).
   */
  private static Stream<Row> matching(
      ClusterTables t, MessageQuery query, Instant now, @Nullable MessageStatus status) {
    Predicate<Row> match =
        row ->
            (status == null || row.status == status)
                && (query.key() == null || query.key().equals(row.key))
                && (query.group() == null || query.group().equals(row.group))
                && (query.errorContains() == null
                    || (row.lastError != null && row.lastError.contains(query.errorContains())))
                && (query.olderThan() == null
                    || !row.createdAt.isAfter(now.minus(query.olderThan())));
    return t.messages.rows(query.queue()).stream().filter(match);
  }
}
