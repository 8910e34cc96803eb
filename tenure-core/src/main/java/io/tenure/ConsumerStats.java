package io.tenure;

/**
 * One node's consumer of one queue, counted since it started.
 *
 * @param handled messages whose handler returned normally and whose done was written
 * @param retried failures resolved as retries
 * @param deadLettered failures resolved as dead letters
 * @param lostClaims resolves refused because the claim was lost (the message had been reclaimed)
 * @param inflight messages claimed by this consumer now, running or waiting for a slot
 */
public record ConsumerStats(String queue, long handled, long retried, long deadLettered, long lostClaims,
    int inflight) {}
