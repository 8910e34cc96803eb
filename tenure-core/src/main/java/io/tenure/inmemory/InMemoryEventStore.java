package io.tenure.inmemory;

import io.tenure.ClusterEvent;
import io.tenure.spi.EventStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The cluster history in memory, newest first. */
final class InMemoryEventStore implements EventStore {
  private final InMemoryStore store;

  InMemoryEventStore(InMemoryStore store) {
    this.store = store;
  }

  @Override
  public void append(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      String cut = detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) : detail;
      t.events.addFirst(new ClusterEvent(t.nextEventId++, store.now(), kind, nodeId, epoch, cut));
    }
  }

  /** All of them under one hold of the tables' monitor, as one transaction would write them. */
  @Override
  public void appendAll(List<NewEvent> events) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      for (NewEvent event : events) {
        append(event.kind(), event.nodeId(), event.epoch(), event.detail());
      }
    }
  }

  @Override
  public List<ClusterEvent> recent(int limit) {
    EventStore.checkRecentLimit(limit);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      return t.events.stream().limit(limit).toList();
    }
  }

  @Override
  public int trim(int keep, Duration maxAge) {
    EventStore.checkTrim(keep, maxAge);
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Instant cutoff = store.now().minus(maxAge);
      int position = 0;
      int deleted = 0;
      for (Iterator<ClusterEvent> it = t.events.iterator(); it.hasNext(); position++) {
        ClusterEvent event = it.next();
        if (position >= keep || event.at().isBefore(cutoff)) {
          it.remove();
          deleted++;
        }
      }
      return deleted;
    }
  }

  @Override
  public io.tenure.spi.SkippedRows skippedRows() {
    return io.tenure.spi.SkippedRows.NONE; // typed rows only: nothing here can be unreadable
  }
}
