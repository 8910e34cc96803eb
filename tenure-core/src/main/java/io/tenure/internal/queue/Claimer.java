package io.tenure.internal.queue;

import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's claimer threads (SPEC §6.2): each claims what the {@link ClaimBudget} has room for
 * into the {@link ClaimBuffer}. Polling backs off from the shortest poll to the longest ({@link
 * #MIN_POLL} and {@link #MAX_POLL} unless the node sets them) while the queue is empty and resets
 * as soon as a claim finds work; a wake-up cuts a wait short, and one that arrives while a claim
 * runs is remembered, so the claimer claims again instead of sleeping on it.
 */
final class Claimer {
  static final Duration MIN_POLL = Duration.ofMillis(20);
  static final Duration MAX_POLL = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(Claimer.class);

  private final QueueStore store;
  private final Queue queue;
  private final Supplier<String> nodeId;
  private final BooleanSupplier mayClaim;
  private final @Nullable AgentGuard guard;
  private final ClaimBudget budget;
  private final ClaimBuffer buffer;
  private final ConsumerTimings timings;
  private final long minPoll;
  private final long maxPoll;
  private final Object wake = new Object();
  private final List<Thread> threads = new ArrayList<>();

  /** A wake-up came since the last claim started: guarded by {@link #wake}. */
  private boolean woken;

  /** False once the consumer stops taking work: closing, or its exclusive queue moved on. */
  private volatile boolean claiming;

  Claimer(
      QueueStore store,
      Queue queue,
      Supplier<String> nodeId,
      BooleanSupplier mayClaim,
      @Nullable AgentGuard guard,
      ClaimBudget budget,
      ClaimBuffer buffer,
      ConsumerTimings timings,
      Duration minPoll,
      Duration maxPoll) {
    this.store = store;
    this.minPoll = minPoll.toNanos();
    this.maxPoll = maxPoll.toNanos();
    this.queue = queue;
    this.nodeId = nodeId;
    this.mayClaim = mayClaim;
    this.guard = guard;
    this.budget = budget;
    this.buffer = buffer;
    this.timings = timings;
  }

  /** Starts {@code lanes} claimer threads named after {@code suffix}. */
  void start(String suffix, int lanes) {
    claiming = true;
    for (int i = 0; i < lanes; i++) {
      threads.add(
          Thread.ofPlatform()
              .daemon()
              .name("tenure-claim-" + suffix + "-" + i)
              .start(io.tenure.internal.logging.LogContext.inherit(this::loop)));
    }
  }

  boolean claiming() {
    return claiming;
  }

  /** Stops claiming; a claim in the store finishes, and is given back if the buffer closed. */
  void stop() {
    claiming = false;
    wake();
  }

  /** Cuts a claimer's wait short: work may have arrived, or room was freed. */
  void wake() {
    synchronized (wake) {
      woken = true;
      wake.notifyAll();
    }
  }

  List<Thread> threads() {
    return threads;
  }

  private void loop() {
    long idle = minPoll;
    while (claiming) {
      int want = mayClaim.getAsBoolean() ? budget.reserve() : 0;
      if (want == 0) {
        pause(MAX_POLL.toNanos());
        continue;
      }
      List<QueueMessage> got;
      synchronized (wake) {
        woken = false; // this claim sees every commit announced so far
      }
      try {
        got = store.claim(request(want));
      } catch (RuntimeException e) {
        budget.unreserve(want);
        LOG.warn("queue {}: claim failed: {}", queue.name(), e.toString());
        pause(MAX_POLL.toNanos());
        continue;
      }
      budget.unreserve(want - got.size());
      if (got.isEmpty()) {
        pause(idle);
        idle = Math.min(idle * 2, maxPoll);
        continue;
      }
      idle = minPoll;
      if (buffer.accept(got)) {
        timings.claimed(got);
      } else {
        releaseLate(got);
      }
    }
  }

  private ClaimRequest request(int want) {
    return new ClaimRequest(
        queue.name(), nodeId.get(), want, queue.policy().lease(), guard != null, guard);
  }

  /**
   * Gives back a claim that returned after closing emptied the buffer (it outlived the drain
   * deadline): written here, because the resolvers may have stopped, so that the messages do not
   * wait for their leases to lapse.
   */
  private void releaseLate(List<QueueMessage> got) {
    budget.unreserve(got.size());
    try {
      store.resolve(
          got.stream().map(m -> new Resolution(m.claim(), new Resolution.Release())).toList(),
          guard);
    } catch (RuntimeException e) {
      LOG.warn(
          "queue {}: could not release {} messages claimed while closing; their leases will lapse: {}",
          queue.name(),
          got.size(),
          e.toString());
    }
  }

  private void pause(long nanos) {
    synchronized (wake) {
      if (!claiming || woken) {
        woken = false;
        return;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(wake, nanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        claiming = false;
      }
    }
  }
}
