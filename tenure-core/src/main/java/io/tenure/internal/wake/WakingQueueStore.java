package io.tenure.internal.wake;

import io.tenure.CancelOutcome;
import io.tenure.MessageProgress;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageAdminStore;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A queue store that wakes the consumers of each queue it enqueued on: after the enqueue returned,
 * that is after its commit; inside a caller's transaction, whose commit it cannot see, a little
 * later and again ({@link WakeSender#AFTER_TRANSACTION}). A replay wakes the replayed letters'
 * queue, and the operator's actions that make messages claimable wake theirs ({@link WakingAdmin}).
 * Everything else passes through.
 */
final class WakingQueueStore implements QueueStore {
  private final QueueStore delegate;
  private final WakeSender sender;
  private final WakingAdmin admin;

  WakingQueueStore(QueueStore delegate, WakeSender sender) {
    this.delegate = delegate;
    this.sender = sender;
    this.admin = new WakingAdmin(delegate, sender);
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> messages) {
    List<EnqueueResult> results = delegate.enqueue(messages);
    queues(messages).forEach(sender::committed);
    return results;
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> messages) {
    List<EnqueueResult> results = delegate.enqueue(transaction, messages);
    queues(messages).forEach(sender::enqueuedInTransaction);
    return results;
  }

  private static Set<String> queues(List<NewMessage> messages) {
    return messages.size() == 1
        ? Set.of(messages.get(0).queue())
        : messages.stream().map(NewMessage::queue).collect(java.util.stream.Collectors.toSet());
  }

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    return delegate.claim(request);
  }

  @Override
  public ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    return delegate.resolve(resolutions, guard);
  }

  @Override
  public boolean extend(MessageClaim claim, Duration lease) {
    return delegate.extend(claim, lease);
  }

  @Override
  public int reclaimExpired(int limit, ReclaimRule rule) {
    return delegate.reclaimExpired(limit, rule);
  }

  @Override
  public Optional<QueueMessage> find(long id) {
    return delegate.find(id);
  }

  @Override
  public List<QueueMessage> list(MessageQuery query) {
    return delegate.list(query);
  }

  @Override
  public int replay(MessageQuery deadLetters) {
    int replayed = delegate.replay(deadLetters);
    if (replayed > 0) {
      sender.committed(deadLetters.queue());
    }
    return replayed;
  }

  @Override
  public boolean replay(long id) {
    boolean replayed = delegate.replay(id);
    if (replayed) {
      admin.wakeQueueOf(id);
    }
    return replayed;
  }

  @Override
  public int purge(MessageQuery deadLetters) {
    return delegate.purge(deadLetters);
  }

  @Override
  public int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit) {
    return delegate.deleteExpired(queue, doneFor, deadFor, limit);
  }

  @Override
  public List<QueueStats> stats() {
    return delegate.stats();
  }

  @Override
  public CancelOutcome cancel(long id) {
    return delegate.cancel(id);
  }

  @Override
  public Set<Long> lostClaims(List<MessageClaim> claims) {
    return delegate.lostClaims(claims);
  }

  @Override
  public boolean progress(MessageClaim claim, MessageProgress progress) {
    return delegate.progress(claim, progress);
  }

  @Override
  public boolean checkpoint(MessageClaim claim, byte[] state) {
    return delegate.checkpoint(claim, state);
  }

  @Override
  public QueueControlStore controls() {
    return admin;
  }

  @Override
  public MessageAdminStore admin() {
    return admin;
  }

  @Override
  public Optional<AutoCloseable> listen(Consumer<String> onEnqueue) {
    return delegate.listen(onEnqueue);
  }
}
