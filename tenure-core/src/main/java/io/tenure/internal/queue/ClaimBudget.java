package io.tenure.internal.queue;

import io.tenure.Ticker;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One consumer's count of the messages it holds, and the room its claimers may still fill. Room is
 * reserved before a claim and given back for what the claim did not fill, so two claimers never
 * share room; the {@link FetchAhead} sizes it, measured on the consumer's ticker.
 */
final class ClaimBudget {
  private final Ticker ticker;

  /** Claimed and not yet resolved: buffered, running, or with an outcome waiting to be written. */
  private final AtomicInteger outstanding = new AtomicInteger();

  /** Claimed and not yet handled: buffered or running. What fetch-ahead refills. */
  private final AtomicInteger unhandled = new AtomicInteger();

  /** Messages the handlers finished, for the rate that sizes fetch-ahead. */
  private final AtomicLong finished = new AtomicLong();

  /** Held while a claimer sizes its claim and reserves it. */
  private final Object reserving = new Object();

  private volatile FetchAhead fetchAhead;

  ClaimBudget(FetchAhead initial, Ticker ticker) {
    this.fetchAhead = initial;
    this.ticker = ticker;
  }

  /** Reserves room for one claim and returns its size, or 0 if a claim is not worth it yet. */
  int reserve() {
    synchronized (reserving) {
      FetchAhead sized = fetchAhead.next(ticker.read(), finished.get());
      fetchAhead = sized;
      int want = sized.claimSize(unhandled.get(), outstanding.get());
      if (want > 0) {
        outstanding.addAndGet(want);
        unhandled.addAndGet(want);
      }
      return want;
    }
  }

  /** Gives back room a claim reserved and did not fill. */
  void unreserve(int unused) {
    if (unused > 0) {
      outstanding.addAndGet(-unused);
      unhandled.addAndGet(-unused);
    }
  }

  /**
   * Counts messages the handlers finished.
   *
   * @return whether the next claim is due now
   */
  boolean handled(int count) {
    finished.addAndGet(count);
    FetchAhead sized = fetchAhead;
    int before = unhandled.getAndAdd(-count);
    return sized.claimDueAfter(before, count);
  }

  /** Counts messages whose outcome was written, given up, or abandoned. */
  void resolved(int count) {
    outstanding.addAndGet(-count);
  }

  int outstanding() {
    return outstanding.get();
  }

  FetchAhead fetchAhead() {
    return fetchAhead;
  }
}
