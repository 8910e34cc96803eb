package io.tenure.internal.queue;

import io.tenure.ContentionException;
import io.tenure.StoreUnavailableException;
import io.tenure.Ticker;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one consumer's batches of outcomes (SPEC §6.3). A write that fails on the connection (the
 * classifier says unavailable, or contention outlasted the store's own retries) is tried again with
 * backoff, each try on a connection of its own (the store borrows one per call, and discards a
 * broken one), until it lands or the earliest lease of the batch is near its end; only then is it
 * given up: the message is handled again once its lease lapses (at least once). Any other failure
 * is not a passing one and is given up at once.
 *
 * <p>A try whose commit landed but whose reply was lost is tried again too. That is safe: every
 * resolve is conditional on its claim token, so the second finds the claim ended and is a lost
 * claim that changes nothing. Within its lease a claim ends only by its holder's own resolve or an
 * operator's cancel (a reclaim waits for the lease to lapse), so a claim a retry reports lost, in
 * an answer that came back before {@code giveUpAt}, was ended by an earlier try of this batch (or
 * cancelled): it is counted as written. The clock is read when the answer comes, not before the
 * try: a pause between the check and the try can carry it past the lease, after a reclaim, and such
 * a claim is counted unwritten (model finding F5, docs/MODEL.md).
 */
final class OutcomeWriter {
  static final Duration FIRST_BACKOFF = Duration.ofMillis(20);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeWriter.class);

  private final QueueStore store;
  private final String queue;
  private final @Nullable AgentGuard guard;
  private final Ticker ticker;

  /** Ticker reading past which no retry starts: closing's bound. */
  private final LongSupplier stopBy;

  /**
   * @param ticker the clock of the leases' local deadlines
   * @param stopBy ticker reading past which no write is tried again (closing)
   */
  OutcomeWriter(
      QueueStore store,
      String queue,
      @Nullable AgentGuard guard,
      Ticker ticker,
      LongSupplier stopBy) {
    this.store = store;
    this.queue = queue;
    this.guard = guard;
    this.ticker = ticker;
    this.stopBy = stopBy;
  }

  /**
   * What became of a batch.
   *
   * @param written outcomes written as asked (by this call, or by an earlier try whose reply was
   *     lost)
   * @param lost outcomes refused because their claim had ended before this batch's first try
   * @param unwritten outcomes given up: their messages run again when their leases lapse
   * @param returned outcomes an exclusive queue's stale guard refused: their messages went back
   * @param guardRefused the agent guard no longer held
   */
  record Written(
      List<Resolution> written,
      List<Resolution> lost,
      List<Resolution> unwritten,
      List<Resolution> returned,
      boolean guardRefused) {}

  /** Writes {@code batch}, trying again until {@code giveUpAt} (on the ticker). */
  Written write(List<Resolution> batch, long giveUpAt) {
    List<Resolution> pending = batch;
    List<Resolution> written = new ArrayList<>();
    List<Resolution> lost = new ArrayList<>();
    List<Resolution> late = new ArrayList<>();
    boolean triedBefore = false;
    long backoff = FIRST_BACKOFF.toNanos();
    while (!pending.isEmpty()) {
      ResolveResult result;
      try {
        result = store.resolve(pending, guard);
      } catch (StoreUnavailableException | ContentionException e) {
        triedBefore = true;
        if (ticker.read() + backoff >= Math.min(giveUpAt, stopBy.getAsLong())) {
          LOG.warn(
              "queue {}: could not resolve {} messages, given up near the end of their leases (they run"
                  + " again when the leases lapse): {}",
              queue,
              pending.size(),
              e.toString());
          return new Written(written, lost, concat(late, pending), List.of(), false);
        }
        LOG.info(
            "queue {}: could not resolve {} messages, trying again in {} ms: {}",
            queue,
            pending.size(),
            TimeUnit.NANOSECONDS.toMillis(backoff),
            e.toString());
        if (!pause(backoff)) {
          return new Written(written, lost, concat(late, pending), List.of(), false);
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF.toNanos());
        continue;
      } catch (RuntimeException e) {
        LOG.warn(
            "queue {}: could not resolve {} messages, not a passing failure (they run again when their"
                + " leases lapse): {}",
            queue,
            pending.size(),
            e.toString());
        return new Written(written, lost, concat(late, pending), List.of(), false);
      }
      if (result.allApplied()) {
        written.addAll(pending);
        break;
      }
      Set<Long> ended = new HashSet<>(result.lost());
      List<Resolution> endedHere =
          pending.stream().filter(r -> ended.contains(r.claim().id())).toList();
      boolean answeredLate = ticker.read() >= giveUpAt;
      if (triedBefore && answeredLate && !endedHere.isEmpty()) {
        // Answered past the lease's local end: a reclaim may have ended the claim, not a try of
        // ours, so nothing says the outcome landed.
        LOG.warn(
            "queue {}: {} resolves found their claims ended on a try answered after their leases"
                + " (they may have been reclaimed and run again)",
            queue,
            endedHere.size());
        late.addAll(endedHere);
      } else if (triedBefore) {
        if (!endedHere.isEmpty()) {
          LOG.info(
              "queue {}: {} resolves had landed on a try whose reply was lost",
              queue,
              endedHere.size());
        }
        written.addAll(endedHere);
      } else {
        lost.addAll(endedHere);
      }
      if (result.guardRefused()) {
        Set<Long> landed = new HashSet<>(result.applied());
        List<Resolution> returned = new ArrayList<>();
        for (Resolution r : pending) {
          if (landed.contains(r.claim().id())) {
            written.add(r);
          } else if (!ended.contains(r.claim().id())) {
            returned.add(r);
          }
        }
        return new Written(written, lost, late, returned, true);
      }
      pending = pending.stream().filter(r -> !ended.contains(r.claim().id())).toList();
    }
    return new Written(written, lost, late, List.of(), false);
  }

  private static List<Resolution> concat(List<Resolution> a, List<Resolution> b) {
    List<Resolution> both = new ArrayList<>(a);
    both.addAll(b);
    return both;
  }

  /**
   * @return false if interrupted: the batch is given up
   */
  private static boolean pause(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
