package io.tenure.tck;

import io.tenure.QueueMessage;
import io.tenure.StoreUnavailableException;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.ForwardingQueueStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A queue store whose resolves fail as on a broken connection ({@link StoreUnavailableException}):
 * before the write reaches the store, or after it was written, as when the commit landed and its
 * reply was lost. Everything else goes to the real store.
 */
public final class FaultyQueueStore extends ForwardingQueueStore {
  private final AtomicInteger failBefore = new AtomicInteger();
  private final AtomicInteger failAfter = new AtomicInteger();
  private volatile boolean down;
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicInteger claims = new AtomicInteger();
  private final AtomicInteger claiming = new AtomicInteger();

  FaultyQueueStore(QueueStore delegate) {
    super(delegate);
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
    ResolveResult result = delegate().resolve(resolutions, guard);
    if (take(failAfter)) {
      failed.incrementAndGet();
      throw new StoreUnavailableException(
          "injected fault: the resolve was written and its reply lost", null);
    }
    return result;
  }

  @Override
  public List<QueueMessage> claim(ClaimRequest request) {
    claiming.incrementAndGet();
    try {
      return delegate().claim(request);
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
}
