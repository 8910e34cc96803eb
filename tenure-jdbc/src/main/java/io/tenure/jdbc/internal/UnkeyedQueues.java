package io.tenure.jdbc.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which queues an unordered claim first tries with the dialect's unkeyed claim ({@link
 * QueueSql.OneStatement#unkeyed()}). Only a cost choice, never a rule: the unkeyed claim itself
 * claims nothing while a keyed row of the queue is pending, and then the full claim runs. What this
 * saves is that first, empty statement on a queue that holds keyed rows: after a full claim took a
 * keyed row, the next {@link #FULL_CLAIMS_AFTER_KEYED} claims of that queue go straight to the full
 * claim. Counted in claims, not time, so a test decides it.
 */
final class UnkeyedQueues {
  /** Full claims in a row after one took a keyed row, before the unkeyed claim is tried again. */
  static final int FULL_CLAIMS_AFTER_KEYED = 16;

  private final Map<String, Integer> fullClaimsLeft = new ConcurrentHashMap<>();

  /**
   * @return whether the next claim of {@code queue} tries the unkeyed claim first
   */
  boolean tryUnkeyed(String queue) {
    if (fullClaimsLeft.isEmpty()) {
      return true;
    }
    boolean[] full = {false};
    fullClaimsLeft.computeIfPresent(
        queue,
        (q, left) -> {
          full[0] = true;
          return left <= 1 ? null : left - 1;
        });
    return !full[0];
  }

  /** Notes whether a full claim of {@code queue} took a keyed row. */
  void fullClaimed(String queue, boolean tookKeyed) {
    if (tookKeyed) {
      fullClaimsLeft.put(queue, FULL_CLAIMS_AFTER_KEYED);
    }
  }
}
