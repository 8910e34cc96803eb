package io.tenure.internal.wake;

import io.tenure.spi.EnqueueResult;
import io.tenure.spi.ForwardingQueueStore;
import io.tenure.spi.MessageAdminStore;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueControlStore;
import io.tenure.spi.QueueStore;
import java.sql.Connection;
import java.util.List;
import java.util.Set;

/**
 * A queue store that wakes the consumers of each queue it enqueued on: after the enqueue returned,
 * that is after its commit; inside a caller's transaction, whose commit it cannot see, a little
 * later and again ({@link WakeSender#AFTER_TRANSACTION}). A replay wakes the replayed letters'
 * queue, and the operator's actions that make messages claimable wake theirs ({@link WakingAdmin}).
 * Everything else passes through.
 */
final class WakingQueueStore extends ForwardingQueueStore {
  private final WakeSender sender;
  private final WakingAdmin admin;

  WakingQueueStore(QueueStore delegate, WakeSender sender) {
    super(delegate);
    this.sender = sender;
    this.admin = new WakingAdmin(delegate, sender);
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> messages) {
    List<EnqueueResult> results = delegate().enqueue(messages);
    queues(messages).forEach(sender::committed);
    return results;
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> messages) {
    List<EnqueueResult> results = delegate().enqueue(transaction, messages);
    queues(messages).forEach(sender::enqueuedInTransaction);
    return results;
  }

  private static Set<String> queues(List<NewMessage> messages) {
    return messages.size() == 1
        ? Set.of(messages.get(0).queue())
        : messages.stream().map(NewMessage::queue).collect(java.util.stream.Collectors.toSet());
  }

  @Override
  public int replay(MessageQuery deadLetters) {
    int replayed = delegate().replay(deadLetters);
    if (replayed > 0) {
      sender.committed(deadLetters.queue());
    }
    return replayed;
  }

  @Override
  public boolean replay(long id) {
    boolean replayed = delegate().replay(id);
    if (replayed) {
      admin.wakeQueueOf(id);
    }
    return replayed;
  }

  @Override
  public QueueControlStore controls() {
    return admin;
  }

  @Override
  public MessageAdminStore admin() {
    return admin;
  }
}
