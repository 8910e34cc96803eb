package io.tenure.tck;

import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A queue store whose resolves fail as on a broken connection ({@link StoreUnavailableException}):
 * before the write reaches the store, or after it was written, as when the commit landed and its
 * reply was lost. Everything else goes to the real store.
 */
public final class FaultyQueueStore implements QueueStore {
  private final QueueStore delegate;
  private final AtomicInteger failBefore = new AtomicInteger();
  private final AtomicInteger failAfter = new AtomicInteger();
  private volatile boolean down;
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicInteger claims = new AtomicInteger();
  private final AtomicInteger claiming = new AtomicInteger();

  FaultyQueueStore(QueueStore delegate) {
    this.delegate = delegate;
  }

  /** The next {@code count} resolves fail before they are written. */
  public void failResolves(int count) {
    failBefore.set(count);
  }

  /** The next {@code count} resolves are written, then fail as if their reply was lost. */
  public void loseResolveReplies(int count) {
    failAfter.set(count);
  }

  /** Every resolve fails before it is written, or works again. */
  public void resolvesDown(boolean down) {
    this.down = down;
  }

  /**
   * @return how many resolves failed by injection so far
   */
  public int failedResolves() {
    return failed.get();
  }

  private static boolean take(AtomicInteger budget) {
    return budget.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
  }

  @Override
  public ResolveResult resolve(List<Resolution> resolutions, @Nullable AgentGuard guard) {
    if (down || take(failBefore)) {
      failed.incrementAndGet();
      throw new StoreUnavailableException(
          "injected fault: the connection broke before the resolve", null);
    }
    ResolveResult result = delegate.resolve(resolutions, guard);
    if (take(failAfter)) {
      failed.incrementAndGet();
      throw new StoreUnavailableException(
          "injected fault: the resolve was written and its reply lost", null);
    }
    return result;
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
    claiming.incrementAndGet();
    try {
      return delegate.claim(request);
    } finally {
      claims.incrementAndGet();
      claiming.decrementAndGet();
    }
  }

  /**
   * @return claims that started and have not yet returned
   */
  public int claimsInProgress() {
    return claiming.get();
  }

  /**
   * @return claims that returned or failed so far
   */
  public int claims() {
    return claims.get();
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
  public io.tenure.CancelOutcome cancel(long id) {
    return delegate.cancel(id);
  }

  @Override
  public java.util.Set<Long> lostClaims(List<MessageClaim> claims) {
    return delegate.lostClaims(claims);
  }

  @Override
  public boolean progress(MessageClaim claim, io.tenure.MessageProgress progress) {
    return delegate.progress(claim, progress);
  }

  @Override
  public boolean checkpoint(MessageClaim claim, byte[] state) {
    return delegate.checkpoint(claim, state);
  }

  @Override
  public io.tenure.spi.QueueControlStore controls() {
    return delegate.controls();
  }

  @Override
  public io.tenure.spi.MessageAdminStore admin() {
    return delegate.admin();
  }

  @Override
  public Optional<AutoCloseable> listen(java.util.function.Consumer<String> onEnqueue) {
    return delegate.listen(onEnqueue);
  }
}
