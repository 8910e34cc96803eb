package io.tenure.inmemory;

import io.tenure.MessageStatus;
import io.tenure.Queue;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.ClaimAllowance;
import io.tenure.spi.QueueControlStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Queue pause and limits in memory, under the cluster tables' monitor like every queue call, so a
 * claim reads its queue's control and counts what is in flight in one atomic step.
 */
final class InMemoryQueueControls implements QueueControlStore {
  private final InMemoryStore store;

  InMemoryQueueControls(InMemoryStore store) {
    this.store = store;
  }

  /** One queue's stored control. */
  record Control(boolean paused, QueueLimits limits, Instant updatedAt) {}

  /** A rate-limited queue's claim, for its sliding window. */
  private record Claim(String queue, String rateKey, Instant at, int count) {}

  /** The controls of one namespace and its rate-limited queues' recent claims. */
  static final class Table {
    private final Map<String, Control> controls = new TreeMap<>();
    private final List<Claim> claims = new ArrayList<>();

    void clear() {
      controls.clear();
      claims.clear();
    }

    @Nullable Control get(String queue) {
      return controls.get(queue);
    }

    /**
     * The allowance of a claim of {@code queue} now, its old claims forgotten first; null if the
     * queue has no limits.
     */
    @Nullable ClaimAllowance allowance(
        String queue, int requested, QueueTable messages, Instant now) {
      Control control = controls.get(queue);
      if (control == null || control.limits.unlimited()) {
        return null;
      }
      Map<String, Integer> groups = new HashMap<>();
      int inFlight = inFlight(messages, queue, groups);
      return ClaimAllowance.of(control.limits, requested, inFlight, groups, window(queue, now));
    }

    /** Records the claims a rate counts. */
    void record(String queue, Map<String, Integer> byRateKey, Instant now) {
      byRateKey.forEach((key, count) -> claims.add(new Claim(queue, key, now, count)));
    }

    /**
     * Claims of the queue within its rate's period before now, per rate key; older ones dropped.
     */
    private Map<String, Integer> window(String queue, Instant now) {
      Control control = controls.get(queue);
      RateLimit rate = control == null ? null : control.limits.rate();
      Map<String, Integer> window = new HashMap<>();
      if (rate == null) {
        claims.removeIf(c -> c.queue.equals(queue));
        return window;
      }
      Instant from = now.minus(rate.per());
      claims.removeIf(c -> c.queue.equals(queue) && !c.at.isAfter(from));
      claims.stream()
          .filter(c -> c.queue.equals(queue))
          .forEach(c -> window.merge(c.rateKey, c.count, Integer::sum));
      return window;
    }
  }

  @Override
  public QueueControl read(String queue) {
    Queue.checkName(queue);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return view(t, queue, store.now());
    }
  }

  @Override
  public List<QueueControl> list() {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant now = store.now();
      return t.controls.controls.keySet().stream().map(queue -> view(t, queue, now)).toList();
    }
  }

  @Override
  public boolean pause(String queue, boolean paused) {
    Queue.checkName(queue);
    ClusterTables t = store.clusterTables();
    boolean changed;
    synchronized (t) {
      Control control = t.controls.controls.get(queue);
      QueueLimits limits = control == null ? QueueLimits.none() : control.limits;
      changed = control == null ? paused : control.paused != paused;
      if (changed) {
        t.controls.controls.put(queue, new Control(paused, limits, store.now()));
      }
    }
    if (changed && !paused) {
      t.listeners.forEach(l -> l.accept(queue)); // consumers claim at once, as after an enqueue
    }
    return changed;
  }

  @Override
  public void limit(String queue, QueueLimits limits) {
    Queue.checkName(queue);
    Objects.requireNonNull(limits, "limits");
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Control control = t.controls.controls.get(queue);
      t.controls.controls.put(
          queue, new Control(control != null && control.paused, limits, store.now()));
    }
    t.listeners.forEach(l -> l.accept(queue));
  }

  /** Counts the queue's messages in flight, and adds each group's to {@code groups}. */
  private static int inFlight(QueueTable messages, String queue, Map<String, Integer> groups) {
    int inFlight = 0;
    for (Row row : messages.rows(queue)) {
      if (row.status == MessageStatus.INFLIGHT) {
        inFlight++;
        if (row.group != null) {
          groups.merge(row.group, 1, Integer::sum);
        }
      }
    }
    return inFlight;
  }

  private static QueueControl view(ClusterTables t, String queue, Instant now) {
    Control control = t.controls.get(queue);
    Map<String, Integer> groups = new HashMap<>();
    int inFlight = inFlight(t.messages, queue, groups);
    RateLimit rate = control == null ? null : control.limits.rate();
    int inWindow = 0;
    if (rate != null) {
      Instant from = now.minus(rate.per());
      inWindow =
          t.controls.claims.stream()
              .filter(c -> c.queue.equals(queue) && c.at.isAfter(from))
              .mapToInt(Claim::count)
              .sum();
    }
    return new QueueControl(
        queue,
        control != null && control.paused,
        control == null ? QueueLimits.none() : control.limits,
        inFlight,
        groups,
        inWindow,
        control == null ? null : control.updatedAt);
  }
}
