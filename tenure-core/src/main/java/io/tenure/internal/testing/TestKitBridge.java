package io.tenure.internal.testing;

import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Ticker;
import io.tenure.internal.queue.OutcomeRule;
import io.tenure.internal.schedules.ScheduleFirer;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The runtime's decisions, for the user test kit's synchronous drain and schedule firing: the kit
 * applies the consumer's {@link OutcomeRule} and the leader's {@link ScheduleFirer} themselves, so
 * a test sees what a node would do and never a copy of the rules that could drift from them.
 * Exported to {@code io.tenure.test} only.
 */
public final class TestKitBridge {
  /** Firing passes over the due schedules before {@link #fireDueSchedules} gives up. */
  static final int MAX_PASSES = 1_000;

  private TestKitBridge() {}

  /**
   * What a consumer makes of a handled message ({@link OutcomeRule#decide}).
   *
   * @param message the message as its claim returned it
   * @param failure what the handler threw, null if it returned
   */
  public static Resolution.Outcome outcome(
      QueueMessage message, @Nullable Throwable failure, QueuePolicy policy) {
    return OutcomeRule.decide(message, failure, policy);
  }

  /**
   * What a consumer makes of a message whose handler ran past its timeout ({@link
   * OutcomeRule#onTimeout}).
   */
  public static Resolution.Outcome timedOut(
      QueueMessage message, Duration timeout, QueuePolicy policy) {
    return OutcomeRule.onTimeout(message, timeout, policy);
  }

  /**
   * @return the timeout a handler of the message runs under: its own, else its queue's
   */
  public static Optional<Duration> timeoutOf(QueueMessage message, QueuePolicy policy) {
    return Optional.ofNullable(OutcomeRule.timeoutOf(message, policy));
  }

  /**
   * @return the reclaim sweep's rule for a message whose lease expired
   */
  public static ReclaimRule reclaimRule() {
    return OutcomeRule::onLeaseExpired;
  }

  /**
   * Fires every due schedule of the store as the leader's firer does, pass after pass until none is
   * due by the database clock.
   *
   * @param fence a leader fence the caller holds, current for the whole call
   * @param ticker the firer's local clock
   * @param random the jitter of each slot's message
   * @return how many slots fired
   * @throws IllegalStateException if the fence stopped being current, or schedules were still due
   *     after {@link #MAX_PASSES} passes
   */
  public static long fireDueSchedules(
      Store store, LeaderFence fence, Ticker ticker, RandomGenerator random) {
    ScheduleFirer firer = new ScheduleFirer(store.schedules(), store::now, ticker, random);
    for (int pass = 0; pass < MAX_PASSES; pass++) {
      firer.lookNow();
      firer.tick(fence);
      if (!store.leases().isCurrent(fence)) {
        throw new IllegalStateException(
            "the leader lease of "
                + fence
                + " lapsed while firing schedules; "
                + firer.stats().fired()
                + " slots fired");
      }
      if (store.schedules().due(1).isEmpty()) {
        return firer.stats().fired();
      }
    }
    throw new IllegalStateException(
        "schedules were still due after "
            + MAX_PASSES
            + " firing passes: "
            + store.schedules().due(10));
  }
}
