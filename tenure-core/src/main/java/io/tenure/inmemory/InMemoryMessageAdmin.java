package io.tenure.inmemory;

import io.tenure.CancelOutcome;
import io.tenure.DeleteOutcome;
import io.tenure.MessageStatus;
import io.tenure.RetryOutcome;
import io.tenure.RunNowOutcome;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.MessageAdminStore;
import java.time.Instant;

/**
 * The in-memory store's actions on one message (SPEC §12.3, §12.7): cancel, delete, run now, retry.
 * Each is one step under the tables' monitor, so it reads the status it acts on in the same
 * "statement", and a claim is wholly before or after it.
 */
final class InMemoryMessageAdmin implements MessageAdminStore {
  private final InMemoryStore store;

  InMemoryMessageAdmin(InMemoryStore store) {
    this.store = store;
  }

  CancelOutcome cancel(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.find(id);
      if (row == null) {
        return CancelOutcome.NOT_FOUND;
      }
      if (!row.unfinished()) {
        return CancelOutcome.FINISHED;
      }
      boolean running = row.status == MessageStatus.INFLIGHT;
      row.finish(MessageStatus.CANCELLED, store.now());
      return running ? CancelOutcome.CANCELLED_RUNNING : CancelOutcome.CANCELLED;
    }
  }

  @Override
  public DeleteOutcome delete(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.find(id);
      if (row == null) {
        return DeleteOutcome.NOT_FOUND;
      }
      if (row.status == MessageStatus.INFLIGHT) {
        return DeleteOutcome.IN_FLIGHT;
      }
      t.messages.delete(row);
      return DeleteOutcome.DELETED;
    }
  }

  @Override
  public RunNowOutcome runNow(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.find(id);
      if (row == null) {
        return RunNowOutcome.NOT_FOUND;
      }
      if (row.status != MessageStatus.PENDING) {
        return RunNowOutcome.NOT_PENDING;
      }
      Instant now = store.now();
      if (!row.availableAt.isAfter(now)) {
        return RunNowOutcome.ALREADY_AVAILABLE;
      }
      row.availableAt = now;
      return RunNowOutcome.AVAILABLE_NOW;
    }
  }

  /** The dedupe key is left as it is (Q35d): the row holds it again, or holds none. */
  @Override
  public RetryOutcome retry(long id) {
    ClusterTables t = store.clusterTables();
    synchronized (t) {
      Row row = t.messages.find(id);
      if (row == null) {
        return RetryOutcome.NOT_FOUND;
      }
      if (row.status != MessageStatus.DEAD && row.status != MessageStatus.CANCELLED) {
        return RetryOutcome.NOT_DEAD_OR_CANCELLED;
      }
      row.attempts = 0;
      row.repend(store.now());
      return RetryOutcome.RETRIED;
    }
  }
}
