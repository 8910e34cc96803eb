package io.tenure.internal.admin;

import io.tenure.Admin;
import io.tenure.AgentAssignment;
import io.tenure.ClusterEvent;
import io.tenure.Leader;
import io.tenure.MessageFilter;
import io.tenure.MessageStatus;
import io.tenure.NodeInfo;
import io.tenure.Queue;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.Lease;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** {@link Admin} over one store: each call is one or two store reads, or one operator write. */
public final class DefaultAdmin implements Admin {
  private final Store store;

  /**
   * @param store the store to read; its owner closes it
   */
  public DefaultAdmin(Store store) {
    this.store = store;
  }

  @Override
  public Instant now() {
    return store.now();
  }

  @Override
  public List<NodeInfo> nodes() {
    return store.membership().read().nodes();
  }

  @Override
  public Optional<Leader> leader() {
    Lease lease = store.leases().read();
    if (lease.holder() == null || !lease.live()) {
      return Optional.empty();
    }
    String holder = lease.holder();
    String name =
        nodes().stream()
            .filter(n -> n.nodeId().equals(holder))
            .map(NodeInfo::name)
            .findFirst()
            .orElse(null);
    return Optional.of(new Leader(holder, name, lease.epoch(), lease.expiresAt()));
  }

  @Override
  public List<AgentAssignment> agents() {
    List<AgentAssignment> all = new ArrayList<>(store.agents().readAll());
    all.sort(Comparator.comparing(a -> a.uri().toString()));
    return List.copyOf(all);
  }

  @Override
  public List<ClusterEvent> events(int limit) {
    return store.events().recent(limit);
  }

  @Override
  public List<QueueStats> queues() {
    return store.queues().stats();
  }

  @Override
  public Optional<QueueMessage> message(long id) {
    return store.queues().find(id);
  }

  @Override
  public List<QueueMessage> deadLetters(
      String queue, MessageFilter filter, long afterId, int limit) {
    if (afterId < 0) {
      throw new IllegalArgumentException("afterId must be 0 or more, got " + afterId);
    }
    return store.queues().list(query(queue, filter, afterId, limit));
  }

  @Override
  public void replay(String queue, long id) {
    Queue.checkName(queue);
    QueueMessage message =
        store
            .queues()
            .find(id)
            .filter(m -> m.queue().equals(queue))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "queue '" + queue + "' has no message " + id + "; nothing replayed"));
    if (message.status() != MessageStatus.DEAD || !store.queues().replay(id)) {
      throw new IllegalArgumentException(
          "message "
              + id
              + " of queue '"
              + queue
              + "' is "
              + message.status()
              + ", not a dead letter; nothing replayed");
    }
  }

  @Override
  public int replayDeadLetters(String queue, MessageFilter filter, int limit) {
    return store.queues().replay(query(queue, filter, 0, limit));
  }

  @Override
  public int purgeDeadLetters(String queue, MessageFilter filter, int limit) {
    return store.queues().purge(query(queue, filter, 0, limit));
  }

  @Override
  public io.tenure.CancelOutcome cancel(long id) {
    return store.queues().cancel(id);
  }

  @Override
  public io.tenure.DeleteOutcome delete(long id) {
    return store.queues().admin().delete(id);
  }

  @Override
  public io.tenure.RunNowOutcome runNow(long id) {
    return store.queues().admin().runNow(id);
  }

  @Override
  public io.tenure.RetryOutcome retry(long id) {
    return store.queues().admin().retry(id);
  }

  @Override
  public List<QueueControl> queueControls() {
    return store.queues().controls().list();
  }

  @Override
  public QueueControl queueControl(String queue) {
    return store.queues().controls().read(Queue.checkName(queue));
  }

  @Override
  public boolean pauseQueue(String queue, boolean paused) {
    return store.queues().controls().pause(Queue.checkName(queue), paused);
  }

  @Override
  public void limitQueue(String queue, QueueLimits limits) {
    Queue.checkName(queue);
    if (limits == null) {
      throw new IllegalArgumentException("limits must not be null; QueueLimits.none() lifts them");
    }
    store.queues().controls().limit(queue, limits);
  }

  private static MessageQuery query(String queue, MessageFilter filter, long afterId, int limit) {
    Queue.checkName(queue);
    if (filter == null) {
      throw new IllegalArgumentException("filter must not be null; use MessageFilter.ALL for any");
    }
    return new MessageQuery(
        queue,
        MessageStatus.DEAD,
        filter.key(),
        filter.errorContains(),
        filter.olderThan(),
        afterId,
        limit);
  }
}
