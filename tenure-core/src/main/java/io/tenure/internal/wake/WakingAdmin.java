package io.tenure.internal.wake;

import io.tenure.DeleteOutcome;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.RetryOutcome;
import io.tenure.RunNowOutcome;
import io.tenure.spi.MessageAdminStore;
import io.tenure.spi.QueueControlStore;
import io.tenure.spi.QueueStore;
import java.util.List;

/**
 * An operator's action that makes messages claimable wakes the consumers of their queue, as an
 * enqueue does: a run-now, a retry of a dead or cancelled message, a resume and new limits. Without
 * it those messages waited for the consumers' next poll on SQLite and MariaDB. An action that
 * changed nothing sends nothing. A run-now or retry names only the message, so its queue is read
 * back first: one read per operator action.
 */
final class WakingAdmin implements MessageAdminStore, QueueControlStore {
  private final QueueStore store;
  private final WakeSender sender;

  /** Asks {@code store} for its admin and controls at each call, as a caller of it would. */
  WakingAdmin(QueueStore store, WakeSender sender) {
    this.store = store;
    this.sender = sender;
  }

  /** Wakes the consumers of message {@code id}'s queue, if it still exists. */
  void wakeQueueOf(long id) {
    store.find(id).ifPresent(message -> sender.committed(message.queue()));
  }

  @Override
  public DeleteOutcome delete(long id) {
    return store.admin().delete(id);
  }

  @Override
  public RunNowOutcome runNow(long id) {
    RunNowOutcome outcome = store.admin().runNow(id);
    if (outcome == RunNowOutcome.AVAILABLE_NOW) {
      wakeQueueOf(id);
    }
    return outcome;
  }

  @Override
  public RetryOutcome retry(long id) {
    RetryOutcome outcome = store.admin().retry(id);
    if (outcome == RetryOutcome.RETRIED) {
      wakeQueueOf(id);
    }
    return outcome;
  }

  @Override
  public QueueControl read(String queue) {
    return store.controls().read(queue);
  }

  @Override
  public List<QueueControl> list() {
    return store.controls().list();
  }

  @Override
  public boolean pause(String queue, boolean paused) {
    boolean changed = store.controls().pause(queue, paused);
    if (changed && !paused) {
      sender.committed(queue);
    }
    return changed;
  }

  /** New limits may let a claim take more than before: the consumers look again at once. */
  @Override
  public void limit(String queue, QueueLimits limits) {
    store.controls().limit(queue, limits);
    sender.committed(queue);
  }
}
