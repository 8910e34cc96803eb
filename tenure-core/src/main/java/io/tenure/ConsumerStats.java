package io.tenure;

/**
 * One node's consumer of one queue, counted since it started.
 *
 * @param handled messages whose handler returned normally and whose done was written
 * @param retried failures resolved as retries
 * @param deadLettered failures resolved as dead letters
 * @param lostClaims resolves refused because the claim was lost (the message had been reclaimed)
 * @param inflight messages claimed by this consumer now, running or waiting for a slot
 * @param unwritten outcomes whose write failed and was given up: tried again with backoff until the
 *     claim's lease was near its end (or not a passing failure); the message runs again once its
 *     lease lapses
 */
public record ConsumerStats(
    String queue,
    long handled,
    long retried,
    long deadLettered,
    long lostClaims,
    int inflight,
    long unwritten) {}
