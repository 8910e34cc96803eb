package io.tenure.inmemory;

import io.tenure.DedupeWindow;
import io.tenure.MessageProgress;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.NewMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The queue table of one prefix: rows by queue name and id, the unique (queue, dedupe key) index
 * and the id sequence. It lives in {@link ClusterTables} and is guarded by that monitor, so a
 * guarded claim or resolve reads the agents table in the same "transaction".
 */
final class QueueTable {
  private final TreeMap<String, TreeMap<Long, Row>> queues = new TreeMap<>();
  private final Map<Long, Row> byId = new HashMap<>();
  private final Map<DedupeKey, Row> dedupe = new HashMap<>();
  private long nextId = 1;

  private record DedupeKey(String queue, String dedupeKey) {}

  /**
   * @return the row already holding the message's dedupe key, if any
   */
  @Nullable Row duplicateOf(NewMessage message) {
    String dedupeKey = message.dedupeKey();
    return dedupeKey == null ? null : dedupe.get(new DedupeKey(message.queue(), dedupeKey));
  }

  /**
   * Takes the dedupe key from {@code holder} if its window has passed at {@code now} (SPEC §12.6).
   *
   * @return true if the key is free now
   */
  boolean releaseIfPassed(Row holder, Instant now) {
    if (!holder.windowPassed(now)) {
      return false;
    }
    dedupe.remove(new DedupeKey(holder.queue, java.util.Objects.requireNonNull(holder.dedupeKey)));
    holder.dedupeKey = null;
    return true;
  }

  Row insert(NewMessage m, Instant now) {
    Row row = new Row(nextId++, m, now);
    queues.computeIfAbsent(m.queue(), q -> new TreeMap<>()).put(row.id, row);
    byId.put(row.id, row);
    if (m.dedupeKey() != null) {
      dedupe.put(new DedupeKey(m.queue(), m.dedupeKey()), row);
    }
    return row;
  }

  void delete(Row row) {
    TreeMap<Long, Row> rows = queues.get(row.queue);
    rows.remove(row.id);
    byId.remove(row.id);
    if (rows.isEmpty()) {
      queues.remove(row.queue);
    }
    if (row.dedupeKey != null) {
      dedupe.remove(new DedupeKey(row.queue, row.dedupeKey));
    }
  }

  @Nullable Row find(long id) {
    return byId.get(id);
  }

  /**
   * @return the row if {@code claim} still holds it ({@code INFLIGHT} under that token)
   */
  @Nullable Row held(MessageClaim claim) {
    Row row = find(claim.id());
    boolean holds =
        row != null && row.status == MessageStatus.INFLIGHT && claim.token().equals(row.claimToken);
    return holds ? row : null;
  }

  /**
   * @return the queue's rows in id order
   */
  Collection<Row> rows(String queue) {
    TreeMap<Long, Row> rows = queues.get(queue);
    return rows == null ? List.of() : rows.values();
  }

  /**
   * @return every row, in no order
   */
  Stream<Row> all() {
    return byId.values().stream();
  }

  /**
   * @return every non-empty queue's rows, by queue name
   */
  Map<String, TreeMap<Long, Row>> byQueue() {
    return queues;
  }

  void clear() {
    queues.clear();
    byId.clear();
    dedupe.clear();
    nextId = 1;
  }

  /** One message row; outside {@code INFLIGHT} its owner, token and lease are null. */
  static final class Row {
    final long id;
    final String queue;
    final @Nullable String key;
    private final byte[] payload;
    private final String contentType;
    private final Map<String, String> headers;
    final int priority;
    final int maxAttempts;
    final Instant createdAt;
    @Nullable String dedupeKey;
    final @Nullable String group;
    private final @Nullable Duration timeout;
    private final DedupeWindow dedupeWindow;
    @Nullable MessageProgress progress;
    byte @Nullable [] checkpoint;
    int attempts;
    Instant availableAt;
    MessageStatus status = MessageStatus.PENDING;
    private @Nullable String ownerNode;
    private @Nullable String claimToken;
    @Nullable Instant leaseUntil;
    @Nullable String lastError;
    @Nullable Instant finishedAt;

    private Row(long id, NewMessage m, Instant now) {
      this.id = id;
      this.queue = m.queue();
      this.key = m.key();
      this.payload = m.payload().clone();
      this.contentType = m.contentType();
      this.headers = m.headers();
      this.priority = m.priority();
      this.maxAttempts = m.maxAttempts();
      this.createdAt = now;
      this.dedupeKey = m.dedupeKey();
      this.group = m.group();
      this.timeout = m.timeout();
      this.dedupeWindow = m.dedupeWindow();
      this.availableAt = InMemoryQueueStore.after(now, m.delay());
    }

    /** Whether its dedupe window has passed: it no longer keeps others with its key out. */
    boolean windowPassed(Instant now) {
      Duration window = dedupeWindow.afterFinish();
      return window != null
          && !unfinished()
          && finishedAt != null
          && !InMemoryQueueStore.after(finishedAt, window).isAfter(now);
    }

    /** Whether retention must keep it, finished, because its dedupe window has not passed. */
    boolean keptForWindow(Instant now) {
      return dedupeWindow.afterFinish() != null && !windowPassed(now);
    }

    boolean unfinished() {
      return status == MessageStatus.PENDING || status == MessageStatus.INFLIGHT;
    }

    boolean available(Instant now) {
      return status == MessageStatus.PENDING && !availableAt.isAfter(now);
    }

    void claim(String node, Instant leaseUntil) {
      status = MessageStatus.INFLIGHT;
      ownerNode = node;
      claimToken = UUID.randomUUID().toString();
      this.leaseUntil = leaseUntil;
      attempts++;
    }

    void repend(Instant availableAt) {
      status = MessageStatus.PENDING;
      this.availableAt = availableAt;
      finishedAt = null;
      clearClaim();
    }

    void finish(MessageStatus status, Instant now) {
      this.status = status;
      finishedAt = now;
      clearClaim();
    }

    private void clearClaim() {
      ownerNode = null;
      claimToken = null;
      leaseUntil = null;
    }

    QueueMessage snapshot() {
      return new QueueMessage(
          id,
          queue,
          key,
          payload.clone(),
          contentType,
          headers,
          priority,
          attempts,
          maxAttempts,
          availableAt,
          status,
          ownerNode,
          claimToken,
          leaseUntil,
          lastError,
          createdAt,
          finishedAt,
          dedupeKey,
          group,
          timeout,
          dedupeWindow,
          progress,
          checkpoint == null ? null : checkpoint.clone());
    }
  }
}
