package io.tenure.spi;

import io.tenure.CancelOutcome;
import io.tenure.MessageProgress;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A queue store that passes every call to another: the base of a decorator, which overrides only
 * the calls it changes (a wake-up after an enqueue, a fault in a test).
 */
public abstract class ForwardingQueueStore implements QueueStore {
  private final QueueStore delegate;

  /**
   * @param delegate the store every call goes to
   * @throws IllegalArgumentException if delegate is null
   */
  protected ForwardingQueueStore(QueueStore delegate) {
    if (delegate == null) {
      throw new IllegalArgumentException("delegate must not be null");
    }
    this.delegate = delegate;
  }

  /**
   * @return the store every call goes to
   */
  protected final QueueStore delegate() {
    return delegate;
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewMessage> messages) {
    return delegate.enqueue(messages);
  }

  @Override
  public List<EnqueueResult> enqueue(Connection transaction, List<NewMessage> messages) {
    return delegate.enqueue(transaction, messages);
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
    return delegate.replay(deadLetters);
  }

  @Override
  public boolean replay(long id) {
    return delegate.replay(id);
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
    return delegate.controls();
  }

  @Override
  public MessageAdminStore admin() {
    return delegate.admin();
  }

  @Override
  public Optional<AutoCloseable> listen(Consumer<String> onEnqueue) {
    return delegate.listen(onEnqueue);
  }
}
