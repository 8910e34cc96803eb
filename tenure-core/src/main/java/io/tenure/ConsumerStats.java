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
 * @param timedOut messages taken back from handlers that ran past their timeouts (SPEC §12.4),
 *     resolved as their policy says while the handlers run on
 * @param handlerDuration how long each handler call ran, from its start to its return or throw, on
 *     the node's ticker; a batch handler's call counts once, and a call the consumer stopped
 *     waiting for (timed out, cancelled) counts when it returns
 * @param pickupLatency how long each claimed message had been available when this consumer claimed
 *     it, by the database clock: from its {@code availableAt} to the claim (SPEC §6.2), not
 *     counting its wait for a free handler after it
 */
public record ConsumerStats(
    String queue,
    long handled,
    long retried,
    long deadLettered,
    long lostClaims,
    int inflight,
    long unwritten,
    long timedOut,
    DurationHistogram handlerDuration,
    DurationHistogram pickupLatency) {}
