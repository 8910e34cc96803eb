package io.tenure.inmemory;

import io.tenure.AgentAssignment;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimAllowance;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueControlStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Queue messages in memory. Every call runs under the cluster tables' monitor, like one database
 * lock: a claim, resolve or sweep is one atomic step, and a guarded one reads the agent row in the
 * same step. Messages go in and out as copies, so callers never share a payload array with the
 * table.
 */
final class InMemoryQueueStore implements QueueStore {
  private final InMemoryStore store;
  private final InMemoryQueueAdmin admin;
  private final InMemoryQueueControls controls;
  private final InMemoryMessageAdmin messages;

  InMemoryQueueStore(InMemoryStore store) {
    this.store = store;
    this.admin = new InMemoryQueueAdmin(store);
    this.controls = new InMemoryQueueControls(store);
    this.messages = new InMemoryMessageAdmin(store);
  }

  @Override
  public QueueControlStore controls() {
    return controls;
  }

  @Override
  public io.tenure.spi.MessageAdminStore admin() {
    return messages;
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> messages) {
    ClusterTables t = store.clusterTables();
    checkBatch(messages.size(), "messages per enqueue");
    messages.forEach(InMemoryQueueStore::checkWritable);
    List<EnqueueResult> results;
    synchronized (t) {
      Instant now = store.now();
      results =
          messages.stream()
              .map(
                  m -> {
                    Row existing = t.messages.duplicateOf(m);
                    if (existing != null && t.messages.releaseIfPassed(existing, now)) {
                      existing = null;
                    }
                    return existing != null
                        ? new EnqueueResult(existing.id, false)
                        : new EnqueueResult(t.messages.insert(m, now).id, true);
                  })
              .toList();
    }
    // After the "commit", outside the lock, like a database's notification.
    messages.stream()
        .map(NewMessage::queue)
        .distinct()
        .forEach(queue -> t.listeners.forEach(l -> l.accept(queue)));
    return results;
  }

  @Override
  public Optional<AutoCloseable> listen(java.util.function.Consumer<String> onEnqueue) {
    ClusterTables t = store.clusterTables();
    t.listeners.add(onEnqueue);
    return Optional.of(() -> t.listeners.remove(onEnqueue));
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> messages) {
    store.checkOpen();
    throw new UnsupportedOperationException(
        "the in-memory store has no JDBC transactions; enqueue without a connection");
  }

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      if (request.guard() != null && !holds(t, request.guard())) {
        return List.of();
      }
      InMemoryQueueControls.Control control = t.controls.get(request.queue());
      if (control != null && control.paused()) {
        return List.of();
      }
      Instant now = store.now();
      Instant leaseUntil = after(now, request.lease());
      List<Row> candidates =
          InMemoryClaims.claimable(t.messages.rows(request.queue()), request, now);
      ClaimAllowance allowance =
          t.controls.allowance(request.queue(), request.max(), t.messages, now);
      List<Row> taken =
          allowance == null ? candidates : InMemoryClaims.allowed(candidates, allowance, request);
      if (allowance != null) {
        t.controls.record(request.queue(), allowance.claimsByRateKey(), now);
      }
      return taken.stream()
          .limit(request.max())
          .map(
              row -> {
                row.claim(request.nodeId(), leaseUntil);
                return row.snapshot();
              })
          .toList();
    }
  }

  @Override
  public ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    ClusterTables t = store.clusterTables();
    checkBatch(resolutions.size(), "resolutions per resolve");
    Set<Long> ids = new HashSet<>();
    for (Resolution r : resolutions) {
      if (!ids.add(r.claim().id())) {
        throw new IllegalArgumentException(
            "message " + r.claim().id() + " appears twice in one resolve");
      }
    }
    synchronized (t) {
      Instant now = store.now();
      List<Long> lost =
          resolutions.stream()
              .map(Resolution::claim)
              .filter(c -> t.messages.held(c) == null)
              .map(MessageClaim::id)
              .toList();
      boolean terminal = resolutions.stream().anyMatch(r -> r.outcome().terminal());
      if (terminal && guard != null && !holds(t, guard)) {
        // Refused, but never stranded (SPEC §6.9): a re-pend lands as asked; a finish goes back to
        // the queue with its attempt given back (a handler that succeeded is not charged one).
        List<Long> applied = new ArrayList<>();
        resolutions.forEach(
            r -> {
              Row row = t.messages.held(r.claim());
              if (row == null) {
                return;
              }
              if (repends(r.outcome())) {
                apply(t.messages, row, r.outcome(), now);
                applied.add(r.claim().id());
              } else {
                row.attempts--;
                row.repend(row.availableAt);
              }
            });
        return new ResolveResult(applied, lost, true);
      }
      if (!lost.isEmpty()) {
        return new ResolveResult(List.of(), lost, false);
      }
      resolutions.forEach(r -> apply(t.messages, t.messages.held(r.claim()), r.outcome(), now));
      return new ResolveResult(
          resolutions.stream().map(r -> r.claim().id()).toList(), List.of(), false);
    }
  }

  /** Whether the outcome puts the message back to {@code PENDING}: never fenced (SPEC §1.5). */
  private static boolean repends(Resolution.Outcome outcome) {
    return switch (outcome) {
      case Resolution.Release release -> true;
      case Resolution.Reschedule snooze -> true;
      case Resolution.Retry retry -> true;
      case Resolution.Done done -> false;
      case Resolution.DeadLetter dead -> false;
    };
  }

  private static void apply(QueueTable table, Row row, Resolution.Outcome outcome, Instant now) {
    switch (outcome) {
      case Resolution.Done done when done.keep() -> row.finish(MessageStatus.DONE, now);
      case Resolution.Done done -> table.delete(row);
      case Resolution.Retry retry -> {
        row.lastError = retry.error();
        row.repend(after(now, retry.in()));
      }
      case Resolution.DeadLetter dead -> {
        row.lastError = dead.error();
        row.finish(MessageStatus.DEAD, now);
      }
      case Resolution.Release release -> {
        row.attempts--;
        row.repend(row.availableAt);
      }
      case Resolution.Reschedule snooze -> {
        row.attempts--;
        row.repend(after(now, snooze.in()));
      }
    }
  }

  @Override
  public boolean extend(MessageClaim claim, Duration lease) {
    io.tenure.Limits.checkPositive("lease", lease, io.tenure.Limits.MAX_DURATION);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.held(claim);
      if (row == null) {
        return false;
      }
      row.leaseUntil = after(store.now(), lease);
      return true;
    }
  }

  @Override
  public boolean progress(MessageClaim claim, io.tenure.MessageProgress progress) {
    if (progress == null) {
      throw new IllegalArgumentException("progress must not be null");
    }
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.held(claim);
      if (row == null) {
        return false;
      }
      row.progress = progress;
      return true;
    }
  }

  @Override
  public boolean checkpoint(MessageClaim claim, byte[] state) {
    if (state == null) {
      throw new IllegalArgumentException("checkpoint must not be null");
    }
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.held(claim);
      if (row == null) {
        return false;
      }
      row.checkpoint = state.clone();
      return true;
    }
  }

  @Override
  public io.tenure.CancelOutcome cancel(long id) {
    return messages.cancel(id);
  }

  @Override
  public Set<Long> lostClaims(List<MessageClaim> claims) {
    if (claims.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "claims per read must be at most " + MAX_BATCH + ", got " + claims.size());
    }
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Set<Long> lost = new HashSet<>();
      claims.stream().filter(c -> t.messages.held(c) == null).forEach(c -> lost.add(c.id()));
      return lost;
    }
  }

  @Override
  public int reclaimExpired(int limit, ReclaimRule rule) {
    Objects.requireNonNull(rule, "rule");
    ClusterTables t = store.clusterTables();
    checkLimit(limit);
    synchronized (t) {
      Instant now = store.now();
      List<Row> expired =
          t.messages
              .all()
              .filter(row -> row.status == MessageStatus.INFLIGHT && row.leaseUntil.isBefore(now))
              .sorted(
                  Comparator.comparing((Row row) -> row.leaseUntil)
                      .thenComparingLong(row -> row.id))
              .limit(limit)
              .toList();
      // Every decision first: a rule that throws leaves every row as it was.
      Map<Row, ReclaimRule.Decision> decisions = new LinkedHashMap<>();
      for (Row row : expired) {
        decisions.put(row, Objects.requireNonNull(rule.decide(row.snapshot()), "decision"));
      }
      decisions.forEach(
          (row, decision) -> {
            switch (decision) {
              case ReclaimRule.Repend repend -> row.repend(now);
              case ReclaimRule.Dead dead -> {
                row.lastError = dead.error();
                row.finish(MessageStatus.DEAD, now);
              }
            }
          });
      return expired.size();
    }
  }

  @Override
  public Optional<QueueMessage> find(long id) {
    return admin.find(id);
  }

  @Override
  public List<QueueMessage> list(MessageQuery query) {
    return admin.list(query);
  }

  @Override
  public int replay(MessageQuery deadLetters) {
    return admin.replay(deadLetters);
  }

  @Override
  public boolean replay(long id) {
    return admin.replay(id);
  }

  @Override
  public int purge(MessageQuery deadLetters) {
    return admin.purge(deadLetters);
  }

  @Override
  public int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    return admin.deleteExpired(queue, doneFor, deadFor, limit);
  }

  @Override
  public List<QueueStats> stats() {
    return admin.stats();
  }

  /** A fail-closed agent guard: holds only while the row names its node at exactly its epoch. */
  private static boolean holds(ClusterTables t, AgentGuard guard) {
    AgentAssignment row = t.agents.get(guard.agent().toString());
    return row != null && guard.nodeId().equals(row.owner()) && row.epoch() == guard.epoch();
  }

  /** {@code now + duration} at the database clock's precision. */
  static Instant after(Instant now, Duration duration) {
    return now.plus(duration).truncatedTo(ChronoUnit.MICROS);
  }

  private static void checkBatch(int size, String what) {
    if (size < 1 || size > MAX_BATCH) {
      throw new IllegalArgumentException(what + " must be 1 to " + MAX_BATCH + ", got " + size);
    }
  }

  static void checkLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  /** What the table's NOT NULL columns need, checked before anything is written. */
  private static void checkWritable(NewMessage m) {
    if (m.queue() == null || m.payload() == null || m.contentType() == null) {
      throw new IllegalArgumentException(
          "message needs a queue, a payload and a content type: " + m);
    }
  }
}
