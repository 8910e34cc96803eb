package io.tenure.inmemory;

import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Schedules in memory, under the cluster tables' monitor, so a fire's enqueue and its move of the
 * schedule are one step as a database transaction makes them.
 */
final class InMemoryScheduleStore implements ScheduleStore {
  private static final int MAX_LIST = 10_000;

  private final InMemoryStore store;

  InMemoryScheduleStore(InMemoryStore store) {
    this.store = store;
  }

  /** One schedule's row. */
  static final class ScheduleRow {
    ScheduleDefinition definition;
    String fingerprint;
    boolean paused;
    @Nullable Instant pausedAt;
    Instant nextFireAt;
    @Nullable Instant lastFireAt;
    @Nullable Instant lastSlotAt;
    @Nullable Long lastMessageId;
    long fired;
    long skipped;
    long version = 1;

    ScheduleRow(ScheduleDefinition definition) {
      this.definition = definition;
      this.fingerprint = definition.fingerprint();
      this.nextFireAt = definition.nextFireAt();
    }

    ScheduleInfo info(Instant now) {
      return new ScheduleInfo(
          definition.schedule(),
          definition.maxAttempts(),
          paused,
          pausedAt,
          nextFireAt,
          lastFireAt,
          lastSlotAt,
          lastMessageId,
          fired,
          skipped,
          version,
          now);
    }
  }

  @Override
  public Schedules.Declared declare(ScheduleDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      ScheduleRow row = t.schedules.get(definition.schedule().name());
      if (row == null) {
        t.schedules.put(definition.schedule().name(), new ScheduleRow(definition));
        return Schedules.Declared.CREATED;
      }
      String fingerprint = definition.fingerprint();
      if (fingerprint.equals(row.fingerprint)) {
        return Schedules.Declared.UNCHANGED;
      }
      row.definition = definition;
      row.fingerprint = fingerprint;
      row.nextFireAt = definition.nextFireAt();
      row.version++;
      return Schedules.Declared.UPDATED;
    }
  }

  @Override
  public Optional<ScheduleInfo> read(String name) {
    Schedule.checkName(name);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return Optional.ofNullable(t.schedules.get(name)).map(row -> row.info(now));
    }
  }

  @Override
  public List<ScheduleInfo> list(int limit) {
    checkLimit(limit);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return t.schedules.values().stream().limit(limit).map(row -> row.info(now)).toList();
    }
  }

  @Override
  public List<ScheduleInfo> due(int limit) {
    checkLimit(limit);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return t.schedules.values().stream()
          .filter(row -> !row.paused && !row.nextFireAt.isAfter(now))
          .sorted(Comparator.comparing((ScheduleRow row) -> row.nextFireAt))
          .limit(limit)
          .map(row -> row.info(now))
          .toList();
    }
  }

  @Override
  public Optional<Instant> nextDue() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.schedules.values().stream()
          .filter(row -> !row.paused)
          .map(row -> row.nextFireAt)
          .min(Comparator.naturalOrder());
    }
  }

  @Override
  public ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing) {
    ClusterTables t = store.clusterTables();
    List<Long> ids = new ArrayList<>();
    synchronized (t) {
      Instant now = store.now();
      if (!InMemoryLeaseStore.isCurrent(t, fence, now)) {
        return new ScheduleFiring.Fenced();
      }
      ScheduleRow row = t.schedules.get(firing.name());
      if (row == null || row.version != firing.version()) {
        return new ScheduleFiring.Lost();
      }
      for (ScheduleFiring.Slot slot : firing.slots()) {
        ids.add(enqueue(t, slot.message(), now));
        row.lastSlotAt = slot.at();
      }
      if (!ids.isEmpty()) {
        row.lastFireAt = now;
        row.lastMessageId = ids.get(ids.size() - 1);
      }
      row.fired += firing.slots().size();
      row.skipped += firing.skipped();
      row.nextFireAt = firing.nextFireAt();
      row.version++;
    }
    notifyListeners(t, firing.slots().stream().map(s -> s.message().queue()).distinct().toList());
    return new ScheduleFiring.Fired(ids);
  }

  @Override
  public boolean setPaused(String name, boolean paused, @Nullable Instant nextFireAt) {
    Schedule.checkName(name);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      ScheduleRow row = t.schedules.get(name);
      if (row == null || row.paused == paused) {
        return false;
      }
      row.paused = paused;
      row.pausedAt = paused ? store.now() : null;
      if (nextFireAt != null) {
        row.nextFireAt = nextFireAt;
      }
      row.version++;
      return true;
    }
  }

  @Override
  public Optional<Long> trigger(String name, NewMessage message) {
    Schedule.checkName(name);
    ClusterTables t = store.clusterTables();
    long id;
    synchronized (t) {
      ScheduleRow row = t.schedules.get(name);
      if (row == null) {
        return Optional.empty();
      }
      Instant now = store.now();
      id = enqueue(t, message, now);
      row.lastFireAt = now;
      row.lastMessageId = id;
      row.version++;
    }
    notifyListeners(t, List.of(message.queue()));
    return Optional.of(id);
  }

  @Override
  public boolean delete(String name) {
    Schedule.checkName(name);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.schedules.remove(name) != null;
    }
  }

  private static long enqueue(ClusterTables t, NewMessage message, Instant now) {
    Row existing = t.messages.duplicateOf(message);
    return existing != null ? existing.id : t.messages.insert(message, now).id;
  }

  /** After the "commit", outside the lock, as a database notifies. */
  private static void notifyListeners(ClusterTables t, List<String> queues) {
    queues.forEach(queue -> t.listeners.forEach(l -> l.accept(queue)));
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIST) {
      throw new IllegalArgumentException("limit must be 1 to 10,000, got " + limit);
    }
  }
}
