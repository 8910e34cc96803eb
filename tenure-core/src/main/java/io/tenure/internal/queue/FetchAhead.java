package io.tenure.internal.queue;

import io.tenure.spi.QueueStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * How many messages a consumer claims ahead of its handlers, and every size derived from it (SPEC
 * §6.5): a pure value, advanced by {@link #next} with a reading of the consumer's {@link
 * io.tenure.Ticker} and the count of messages handled so far.
 *
 * <p>Fetch-ahead is sized by the rate the handlers finish messages: enough for {@link
 * #FETCH_AHEAD_FOR}, so a consumer of fast handlers moves work in large claims and one of slow
 * handlers does not hoard messages its peers could run. Buffered messages wait under their lease,
 * which the consumer extends like a running handler's. An exclusive queue holds one message at a
 * time, so a failed head is retried first.
 *
 * @param floor the fewest messages claimed ahead: every slot filled twice and at least {@link
 *     #MIN_FETCH_AHEAD}; 1 for an exclusive queue
 * @param exclusive whether the queue is exclusive (never resized)
 * @param last the last sample of the handling rate, null before the first
 * @param rate messages handled per second, as last measured
 * @param capacity the current fetch-ahead
 */
record FetchAhead(int floor, boolean exclusive, @Nullable Sample last, double rate, int capacity) {

  /** How long the fetch-ahead should last at the measured rate. */
  static final Duration FETCH_AHEAD_FOR = Duration.ofMillis(250);

  /** Fetch-ahead at least: a claim or resolve costs about the same for 1 message as for 32. */
  static final int MIN_FETCH_AHEAD = 32;

  /**
   * Fetch-ahead at most, whatever the rate: claims of 512 to 1,000 ({@link QueueStore#MAX_BATCH}),
   * near the raw SQL ceiling's best batch (1,000); with 1,024, claims of 256 to 512 cost the
   * database measurably more CPU per message (docs/BENCHMARKS-HISTORY.md, issue 20 §3).
   */
  static final int MAX_FETCH_AHEAD = 2048;

  /** How often the handling rate is measured. */
  static final long RATE_SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Claimers and resolvers per (non-exclusive) consumer. */
  static final int LANES = 2;

  /** Outcomes not yet written, in fetch-aheads, before the claimers wait for the resolvers. */
  static final int RESOLVE_BACKLOG = 2;

  /** The most outcomes one resolve writes. */
  static final int MAX_RESOLVE_BATCH = 500;

  /**
   * One measurement of the handling rate.
   *
   * @param at ticker reading
   * @param finished messages handled by then
   */
  record Sample(long at, long finished) {}

  /** The fetch-ahead before any rate is known: its floor. */
  static FetchAhead initial(boolean exclusive, int concurrency, int batchSize) {
    int floor =
        exclusive
            ? 1
            : (int)
                Math.max(
                    MIN_FETCH_AHEAD, Math.min(Integer.MAX_VALUE, 2L * concurrency * batchSize));
    return new FetchAhead(floor, exclusive, null, 0, floor);
  }

  /**
   * Measures the rate (at most every {@link #RATE_SAMPLE_NANOS}) and sizes the fetch-ahead from it.
   * The rate rises at once (a backlog arrived) and falls by halves (a short pause is not a new
   * rate).
   *
   * @param now a ticker reading
   * @param finished messages handled so far
   */
  FetchAhead next(long now, long finished) {
    if (exclusive || (last != null && now - last.at() < RATE_SAMPLE_NANOS)) {
      return this;
    }
    double measured = rate;
    if (last != null) {
      double sampled = (finished - last.finished()) * 1e9 / (now - last.at());
      measured = Math.max(sampled, rate / 2);
    }
    int wanted = (int) Math.min(Integer.MAX_VALUE, measured * FETCH_AHEAD_FOR.toNanos() / 1e9);
    int sized = Math.max(floor, Math.min(MAX_FETCH_AHEAD, wanted));
    return new FetchAhead(floor, exclusive, new Sample(now, finished), measured, sized);
  }

  /**
   * The size of the next claim, or 0 if one is not worth it yet. Refill by parts, not one freed
   * slot at a time: fewer, larger claim transactions. The room counts what the handlers have not
   * finished, not what the resolvers have not yet written, so the next claim runs while the last
   * batch's outcomes are being written; the outcomes waiting to be written are bounded too. One
   * claim takes at most half the fetch-ahead, so two claimers can both be busy.
   *
   * @param unhandled claimed and not yet handled (buffered or running)
   * @param outstanding claimed and not yet resolved
   */
  int claimSize(int unhandled, int outstanding) {
    if (exclusive) {
      return Math.max(0, capacity - outstanding);
    }
    int room = Math.min(capacity - unhandled, RESOLVE_BACKLOG * capacity - outstanding);
    if (room < capacity / (2 * LANES)) {
      return 0;
    }
    return Math.min(Math.min(room, capacity / 2), QueueStore.MAX_BATCH);
  }

  /**
   * Whether finishing {@code handled} messages, with {@code unhandledBefore} not yet handled
   * before, brings the buffer down past a claim's worth: that is when the next claim is due.
   */
  boolean claimDueAfter(int unhandledBefore, int handled) {
    int due = capacity - capacity / (2 * LANES);
    return unhandledBefore > due && unhandledBefore - handled <= due;
  }

  /** How many outcomes a resolver gathers before it writes without lingering further. */
  int resolveBatch() {
    return exclusive ? 1 : Math.min(MAX_RESOLVE_BATCH, capacity / (2 * LANES));
  }
}
